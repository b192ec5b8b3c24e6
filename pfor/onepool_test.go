package pfor_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// Loops and tasks share one pool: a loop body forks tasks, a task runs
// loops, to any depth, and panics and goroutines behave as in either alone.

// nestLevel runs one level of loops in tasks in loops: a Range whose body
// forks with Join, Do and a Group, each of whose functions runs the next
// level, down to depth 0, which counts a leaf (and panics at the leaf
// numbered boom, if boom >= 0).
func nestLevel(depth int, leaves *atomic.Int64, boom int64) {
	if depth == 0 {
		if leaves.Add(1)-1 == boom {
			panic("boom in a leaf")
		}
		return
	}
	next := func() { nestLevel(depth-1, leaves, boom) }
	pfor.Range(0, 3, func(i int) {
		switch i {
		case 0:
			pfor.Join(next, next)
		case 1:
			pfor.Do(next, next, next)
		default:
			var g pfor.Group
			g.Go(func(w *pfor.Worker) error {
				w.Join(func(*pfor.Worker) { next() }, func(*pfor.Worker) { next() })
				return nil
			})
			g.Go(func(*pfor.Worker) error { next(); return nil })
			if err := g.Wait(); err != nil {
				panic(err)
			}
		}
	}, pfor.WithGrain(1))
}

// leavesAt is the number of leaves nestLevel(depth) runs: each level's three
// bodies run the next level 2, 3 and 3 times.
func leavesAt(depth int) int64 {
	n := int64(1)
	for range depth {
		n *= 8
	}
	return n
}

// TestLoopsAndTasksNest: loop bodies that fork tasks (Join, Do, a Group)
// whose functions run loops, three levels deep, run every leaf once, at
// every GOMAXPROCS, and leave no goroutine behind.
func TestLoopsAndTasksNest(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		pfor.Run(func(*pfor.Worker) {}) // the pool follows GOMAXPROCS before the count
		base := goroutines(t)
		const depth = 3
		for range 3 {
			var leaves atomic.Int64
			within(t, 30*time.Second, "loops in tasks in loops", func() { nestLevel(depth, &leaves, -1) })
			if got, want := leaves.Load(), leavesAt(depth); got != want {
				t.Fatalf("%d leaves ran; want %d", got, want)
			}
		}
		checkNoGrowth(t, base)
	})
}

// TestNestedPanicReachesCaller: a panic in a leaf three levels of loops and
// tasks down reaches the outermost caller as a *PanicError with the
// original value, whichever leaf panics, and nothing is left running.
func TestNestedPanicReachesCaller(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		pfor.Run(func(*pfor.Worker) {}) // the pool follows GOMAXPROCS before the count
		base := goroutines(t)
		const depth = 3
		for _, boom := range []int64{0, 100, leavesAt(depth) - 1} {
			var leaves atomic.Int64
			var pe *pfor.PanicError
			var other any
			within(t, 30*time.Second, "a nested panic", func() {
				pe, other = recoverPanic(func() { nestLevel(depth, &leaves, boom) })
			})
			if pe == nil {
				t.Fatalf("leaf %d panicked: recovered %v (%T); want a *pfor.PanicError", boom, other, other)
			}
			if pe.Value != "boom in a leaf" {
				t.Errorf("leaf %d panicked: PanicError.Value = %v; want the leaf's value", boom, pe.Value)
			}
		}
		checkNoGrowth(t, base)
	})
}

// TestTaskRunsLoopOnWorkers: a task running on a pool worker runs a loop
// whose slots the other workers take: with GOMAXPROCS 3, two of the loop's
// three slots run at the same time as the task, on other goroutines.
func TestTaskRunsLoopOnWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	for attempt := 0; ; attempt++ {
		var others atomic.Int32
		pfor.Run(func(w *pfor.Worker) {
			w.Join(func(*pfor.Worker) {}, func(*pfor.Worker) {
				pfor.Range(0, 3, slowSlot0(func(i int) {
					if i != 0 && onHelper() {
						others.Add(1)
					}
				}), pfor.WithWorkers(3), pfor.WithPartitioner(partition.Static()))
			})
		})
		if others.Load() > 0 {
			return
		}
		if attempt == 100 {
			t.Fatal("in 100 loops run by a task, no slot ran on a pool worker")
		}
	}
}

// TestPostWakesSleepingWorker: a loop called after the pool has been idle
// long enough for its workers to sleep wakes one: slot 1 runs on a pool
// worker while slot 0 waits for it, instead of on the caller after slot 0.
func TestPostWakesSleepingWorker(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	static := pfor.WithPartitioner(partition.Static())
	woken := 0
	for range 5 {
		pfor.Range(0, 2, func(int) {}, pfor.WithWorkers(2), static) // starts the pool
		deadline := time.Now().Add(5 * time.Second)
		for _, sleeping := pfor.TaskIdle(); sleeping < 1; _, sleeping = pfor.TaskIdle() {
			if time.Now().After(deadline) {
				t.Fatal("the pool worker did not sleep within 5 s of the last call")
			}
			time.Sleep(time.Millisecond)
		}
		var onWorker atomic.Bool
		var started atomic.Bool
		pfor.Range(0, 2, func(i int) {
			if i == 1 {
				onWorker.Store(onHelper())
				started.Store(true)
				return
			}
			for deadline := time.Now().Add(time.Second); !started.Load() && time.Now().Before(deadline); {
				time.Sleep(100 * time.Microsecond)
			}
		}, pfor.WithWorkers(2), static)
		if onWorker.Load() {
			woken++
		}
	}
	if woken < 3 {
		t.Errorf("slot 1 of a loop called while the pool worker slept ran on it in %d of 5 calls; want it woken (at least 3)", woken)
	}
}
