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
// untaken with every worker asleep, and the test times out. The vacancy
// mark, set or not, changes nothing.
func TestNoLostWakeups(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		for _, vacant := range []bool{false, true} {
			t.Run(fmt.Sprintf("workers=%d/vacant=%v", workers, vacant), func(t *testing.T) {
				var s Idle
				s.SetVacant(vacant)
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
}

// TestVacancyMark: Busy reports busy only while nobody searches or sleeps
// and the vacancy mark is clear, and vacant only while nobody searches or
// sleeps and the mark is set; the mark is not counted as a searcher or a
// sleeper, and makes neither Notify, Wake nor StopSearch look for a
// sleeper to wake.
func TestVacancyMark(t *testing.T) {
	var wakes int
	stepHook = func(k stepKind) {
		if k == stepWakeOne {
			wakes++
		}
	}
	defer func() { stepHook = nil }()
	var s Idle
	check := func(when string, wantBusy, wantVacant bool, wantSearching, wantSleeping int) {
		t.Helper()
		searching, sleeping := s.Counts()
		busy, vacant := s.Peek().Busy(), s.Peek().Vacant()
		if busy != wantBusy || vacant != wantVacant || searching != wantSearching || sleeping != wantSleeping || wakes != 0 {
			t.Errorf("%s: Busy %v, %v, Counts %d, %d, %d wake-ups; want %v, %v, %d, %d, 0",
				when, busy, vacant, searching, sleeping, wakes, wantBusy, wantVacant, wantSearching, wantSleeping)
		}
	}
	check("new", true, false, 0, 0)
	s.SetVacant(true)
	check("vacant", false, true, 0, 0)
	s.Notify()
	if s.Wake(3) {
		t.Errorf("vacant: Wake(3) reported a wake-up with nobody asleep")
	}
	check("vacant, after Notify and Wake", false, true, 0, 0)
	s.StartSearch()
	check("vacant, one searching", false, false, 1, 0)
	s.StopSearch()
	check("vacant, after StopSearch", false, true, 0, 0)
	s.SetVacant(false)
	check("no longer vacant", true, false, 0, 0)
	s.StartSearch()
	check("one searching", false, false, 1, 0)
	s.SetVacant(true)
	s.SetVacant(false)
	check("one searching, after a vacancy", false, false, 1, 0)
	s.StopSearch()
	check("after StopSearch", true, false, 0, 0)
}

// TestPeekLeavesOutWokenSleepers: a sleeper that Notify or WakeFor moves
// to searching counts as searching (Counts) from the wake-up on, but Peek
// reports nobody idle until the sleeper runs its leave step, and the
// sleeper as searching from then on.
func TestPeekLeavesOutWokenSleepers(t *testing.T) {
	for _, waker := range []string{"Notify", "WakeFor"} {
		t.Run(waker, func(t *testing.T) {
			var s Idle
			p := NewParker()
			asleep, atLeave, leave := make(chan struct{}), make(chan struct{}), make(chan struct{})
			awake, stop, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
			stepHook = func(k stepKind) { // only the sleeper takes these steps
				switch k {
				case stepWait:
					close(asleep)
				case stepLeave:
					close(atLeave)
					<-leave
				}
			}
			defer func() { stepHook = nil }()
			go func() {
				s.StartSearch()
				s.Sleep(p, func() bool { return false })
				close(awake)
				<-stop
				s.StopSearch()
				close(done)
			}()
			check := func(when string, wantBusy bool, wantSearching, wantSleeping int) {
				t.Helper()
				searching, sleeping := s.Counts()
				if busy := s.Peek().Busy(); busy != wantBusy || searching != wantSearching || sleeping != wantSleeping {
					t.Errorf("%s: Busy %v, Counts %d, %d; want %v, %d, %d",
						when, busy, searching, sleeping, wantBusy, wantSearching, wantSleeping)
				}
			}
			<-asleep
			check("asleep", false, 0, 1)
			if waker == "Notify" {
				s.Notify()
			} else {
				s.WakeFor(1)
			}
			check("woken, not run yet", true, 1, 0)
			<-atLeave
			check("woken, before its leave step", true, 1, 0)
			close(leave)
			<-awake
			check("back from Sleep", false, 1, 0)
			close(stop)
			<-done
			check("after StopSearch", true, 0, 0)
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

// TestYieldUncountsTheSearcher: while a searching worker yields the
// processor, another goroutine sees no searcher (Pool.Idle would report no
// worker free), and the worker counts as searching again once Yield
// returns.
func TestYieldUncountsTheSearcher(t *testing.T) {
	for _, procs := range []int{1, 2} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			var s Idle
			s.StartSearch()
			var sawNone atomic.Bool
			go func() {
				for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); runtime.Gosched() {
					if searching, _ := s.Counts(); searching == 0 {
						sawNone.Store(true)
						return
					}
				}
			}()
			for deadline := time.Now().Add(10 * time.Second); !sawNone.Load() && time.Now().Before(deadline); {
				s.Yield()
				if searching, sleeping := s.Counts(); searching != 1 || sleeping != 0 {
					t.Fatalf("after Yield: %d searching, %d sleeping; want 1, 0", searching, sleeping)
				}
			}
			if !sawNone.Load() {
				t.Errorf("a searcher yielding for 10 s: another goroutine always saw it searching; want it uncounted while it yields")
			}
		})
	}
}
