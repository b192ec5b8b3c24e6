package pfor_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// TestTasksAndLoopsNest: tasks that run loops whose bodies run tasks and
// wait for them, three levels deep, with every task worker inside a loop
// at once, finish: a goroutine waiting for tasks from outside the task pool
// (here a loop helper) takes part in them instead of blocking, so the loop
// callers' wait for their helpers always ends.
func TestTasksAndLoopsNest(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		var leaves atomic.Int64
		within(t, 30*time.Second, "tasks in loops in tasks", func() {
			var g pfor.Group
			for range 8 {
				g.Go(func(w *pfor.Worker) error {
					pfor.Range(0, 16, func(i int) {
						var inner pfor.Group
						for range 4 {
							inner.Go(func(w *pfor.Worker) error {
								pfor.Range(0, 8, func(int) { leaves.Add(1) })
								return nil
							})
						}
						inner.Wait()
						pfor.Do(func() { leaves.Add(1) }, func() { leaves.Add(1) })
					}, pfor.WithGrain(1))
					return nil
				})
			}
			g.Wait()
		})
		if got, want := leaves.Load(), int64(8*16*(4*8+2)); got != want {
			t.Errorf("%d leaves; want %d", got, want)
		}
	})
}

// TestTaskPoolNoLeaks: calls that return normally or by panic leave no
// goroutine behind, and the pool stays at GOMAXPROCS-1 workers.
func TestTaskPoolNoLeaks(t *testing.T) {
	pfor.Run(func(*pfor.Worker) {})
	base := goroutines(t)
	for i := range 200 {
		switch i % 4 {
		case 0:
			pfor.Do(func() {}, func() {}, func() {})
		case 1:
			var g pfor.Group
			g.Go(func(w *pfor.Worker) error { w.Go(&g, func(*pfor.Worker) error { return nil }); return nil })
			g.Wait()
		case 2:
			recoverPanic(func() { pfor.Do(func() { panic(i) }, func() {}) })
		case 3:
			pfor.Run(func(w *pfor.Worker) { fibBoth(w, 15) })
		}
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); { // exiting goroutines may wait for a core
		if goroutines(t) <= base {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if now := goroutines(t); now > base {
		t.Errorf("%d goroutines besides the pool's workers and helpers; want at most %d as before", now, base)
	}
}
