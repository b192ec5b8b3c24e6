package sched

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestNoLostWakeups: workers take units of work from a shared counter,
// searching briefly and then sleeping when there is none; producers add
// work in bursts with pauses that let every worker fall asleep. Every unit
// must be taken while producers wait for it: a lost wake-up leaves work
// untaken with every worker asleep, and the test times out.
func TestNoLostWakeups(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			var s Idle
			var work, taken atomic.Int64
			var quit atomic.Bool
			take := func() bool {
				for {
					n := work.Load()
					if n == 0 {
						return false
					}
					if work.CompareAndSwap(n, n-1) {
						taken.Add(1)
						return true
					}
				}
			}
			var wg sync.WaitGroup
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					p := NewParker()
					for !quit.Load() {
						if take() {
							continue
						}
						s.StartSearch()
						found := false
						for range 3 {
							if found = take(); found {
								break
							}
							runtime.Gosched()
						}
						if !found && !quit.Load() {
							s.Sleep(p, func() bool { return work.Load() > 0 || quit.Load() })
						}
						s.StopSearch()
					}
				}()
			}
			const bursts = 300
			for b := range bursts {
				for range 1 + b%4 {
					work.Add(1) // publish, then notify
					s.Notify()
				}
				want := int64(0)
				for i := range b + 1 {
					want += int64(1 + i%4)
				}
				deadline := time.Now().Add(10 * time.Second)
				for taken.Load() != want {
					if time.Now().After(deadline) {
						searching, sleeping := s.Counts()
						t.Fatalf("burst %d: %d of %d units taken after 10 s, %d searching, %d sleeping: lost wake-up",
							b, taken.Load(), want, searching, sleeping)
					}
					runtime.Gosched()
				}
				if b%16 == 0 {
					time.Sleep(100 * time.Microsecond) // let the workers fall asleep
				}
			}
			quit.Store(true)
			for range workers { // wake everyone so that they see quit
				s.mu.Lock()
				for _, p := range s.sleepers {
					p.token()
				}
				s.mu.Unlock()
				time.Sleep(time.Millisecond)
			}
			wg.Wait()
			if searching, sleeping := s.Counts(); searching != 0 || sleeping != 0 {
				t.Errorf("after every worker left: %d searching, %d sleeping; want 0, 0", searching, sleeping)
			}
		})
	}
}

// TestUnparkWakesSleeper: a worker sleeping on a condition other than work
// is woken by Unpark once the condition holds, and Unpark before Sleep is
// not lost either.
func TestUnparkWakesSleeper(t *testing.T) {
	for _, early := range []bool{false, true} {
		var s Idle
		var cond atomic.Bool
		p := NewParker()
		done := make(chan struct{})
		if early {
			cond.Store(true)
			p.Unpark()
		}
		go func() {
			s.StartSearch()
			for !cond.Load() {
				s.Sleep(p, cond.Load)
			}
			s.StopSearch()
			close(done)
		}()
		if !early {
			time.Sleep(time.Millisecond)
			cond.Store(true)
			p.Unpark()
		}
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("early=%v: sleeper not woken 10 s after Unpark", early)
		}
	}
}
