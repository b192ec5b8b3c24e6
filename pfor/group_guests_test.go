package pfor_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// doAtOnce makes n Do calls from n goroutines, all under way at the same
// time (each waits in its first function until every call has begun), so
// that the task pool needs n guests at once, and returns when all have
// returned.
func doAtOnce(n int) {
	var wg sync.WaitGroup
	var begun sync.WaitGroup
	begun.Add(n)
	for range n {
		wg.Go(func() {
			pfor.Do(func() { begun.Done(); begun.Wait() }, func() {})
		})
	}
	wg.Wait()
}

// TestTaskVictimsBounded: after 2,000 Do calls at once, the deques that an
// idle task worker searches are its fellow workers' and a few guests',
// not one per call that was ever under way at once, nor those of workers
// retired when GOMAXPROCS fell (from 32 first: they retire once they see
// it, soon after).
func TestTaskVictimsBounded(t *testing.T) {
	procSweepOf(t, []int{32, 1, 2, 4}, func(t *testing.T) {
		doAtOnce(2000)
		procs := runtime.GOMAXPROCS(0)
		// procs-1 workers; guests: at most 2*procs kept for reuse.
		most := procs - 1 + 2*procs
		got := pfor.TaskVictims()
		for deadline := time.Now().Add(2 * time.Second); got > most && time.Now().Before(deadline); got = pfor.TaskVictims() {
			time.Sleep(time.Millisecond)
		}
		if got > most {
			t.Errorf("after 2,000 Do calls at once: %d deques to search; want at most %d", got, most)
		}
	})
}

// TestGuestTaskLeftBehindStolen: a task spawned with Worker.Go inside Run
// and left on the guest's deque when Run returns is still found by a
// Group.Wait on another goroutine, after many other guests have come and
// gone. At GOMAXPROCS 1 the pool has no worker goroutine: only the waiter
// can steal the task, from the deque of a guest nobody runs.
func TestGuestTaskLeftBehindStolen(t *testing.T) {
	procSweepOf(t, []int{1, 2}, func(t *testing.T) {
		var g pfor.Group
		var ran atomic.Bool
		left := make(chan struct{})
		go func() {
			pfor.Run(func(w *pfor.Worker) {
				w.Go(&g, func(*pfor.Worker) error { ran.Store(true); return nil })
			})
			close(left)
		}()
		<-left
		doAtOnce(64) // guests come and go: the pool drops those it keeps no more
		within(t, 10*time.Second, "Group.Wait for a task left on a guest's deque", func() {
			if err := g.Wait(); err != nil {
				t.Errorf("Wait = %v; want nil", err)
			}
		})
		if !ran.Load() {
			t.Errorf("Wait returned but the task left behind did not run")
		}
	})
}
