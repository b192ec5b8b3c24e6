package pfor_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// procSweep runs f under GOMAXPROCS 1, 2, 3 and 8, restoring it after.
func procSweep(t *testing.T, f func(t *testing.T)) { procSweepOf(t, []int{1, 2, 3, 8}, f) }

// procSweepOf runs f under each GOMAXPROCS of procs.
func procSweepOf(t *testing.T, procs []int, f func(t *testing.T)) {
	for _, procs := range procs {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			f(t)
		})
	}
}

// within fails the test if f does not return within d (a deadlock).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		buf := make([]byte, 1<<20)
		t.Fatalf("%s did not finish in %v (deadlock?):\n%s", what, d, buf[:runtime.Stack(buf, true)])
	}
}

// TestBothMatchesSequential: Both-based fib equals the sequential one, and
// with a slow sequential half the forked half is stolen by another
// goroutine when there is more than one processor.
func TestBothMatchesSequential(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		for n := range 24 {
			var got int
			pfor.Run(func(w *pfor.Worker) { got = fibBoth(w, n) })
			if want := fibSeq(n); got != want {
				t.Fatalf("fib(%d) with Both = %d; want %d", n, got, want)
			}
		}
		if runtime.GOMAXPROCS(0) == 1 {
			return
		}
		// A loaded machine may keep every helper busy or off its core for one
		// try, and the forked half then runs inline; it must be stolen in one of a few.
		me := goid()
		for range 5 {
			var thief string
			pfor.Run(func(w *pfor.Worker) {
				pfor.Both(w, func(w *pfor.Worker, slow bool) int {
					if slow {
						time.Sleep(20 * time.Millisecond)
					} else {
						thief = goid()
					}
					return 0
				}, false, true)
			})
			if thief != me {
				return
			}
		}
		t.Errorf("forked half ran on the caller's goroutine %s in each of 5 tries while the caller slept; want it stolen", me)
	})
}

// TestJoinExactlyOnce: a random tree of Joins, Boths and Group tasks,
// spawned from every depth, visits each node exactly once.
func TestJoinExactlyOnce(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		const nodes = 20_000
		counts := make([]atomic.Int32, nodes)
		var next atomic.Int64
		g, _ := pfor.NewGroup(context.Background())
		var visit func(w *pfor.Worker, seed uint64)
		visit = func(w *pfor.Worker, seed uint64) {
			id := next.Add(1) - 1
			if id >= nodes {
				return
			}
			counts[id].Add(1)
			rng := rand.New(rand.NewPCG(seed, 7))
			switch rng.IntN(3) {
			case 0:
				w.Join(func(w *pfor.Worker) { visit(w, rng.Uint64()) }, func(w *pfor.Worker) { visit(w, seed+1) })
			case 1:
				pfor.Both(w, func(w *pfor.Worker, s uint64) struct{} { visit(w, s); return struct{}{} }, rng.Uint64(), seed+2)
			default:
				for range 2 {
					s := rng.Uint64()
					w.Go(g, func(w *pfor.Worker) error { visit(w, s); return nil })
				}
			}
		}
		g.Go(func(w *pfor.Worker) error { visit(w, 1); return nil })
		within(t, 30*time.Second, "the task tree", func() {
			if err := g.Wait(); err != nil {
				t.Errorf("Wait = %v; want nil", err)
			}
		})
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Fatalf("node %d visited %d times; want exactly once", i, c)
			}
		}
	})
}

// TestWaitHelps: a task that waits for its children runs other tasks
// instead of blocking its worker, so a recursion 2000 deep in which every
// level waits on a Group finishes on one processor and with every worker
// busy.
func TestWaitHelps(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		var leaves atomic.Int64
		var down func(w *pfor.Worker, depth int) error
		down = func(w *pfor.Worker, depth int) error {
			if depth == 0 {
				leaves.Add(1)
				return nil
			}
			g, _ := pfor.NewGroup(context.Background())
			w.Go(g, func(w *pfor.Worker) error { return down(w, depth-1) })
			if depth%100 == 0 { // a little breadth, so that workers steal
				w.Go(g, func(w *pfor.Worker) error { return down(w, 5) })
			}
			return w.Wait(g)
		}
		var g pfor.Group
		g.Go(func(w *pfor.Worker) error { return down(w, 2000) })
		within(t, 30*time.Second, "a 2000-deep chain of waits", func() { g.Wait() })
		if got := leaves.Load(); got != 21 {
			t.Errorf("%d leaves; want 21", got)
		}
	})
}

// TestGroupFromOutside: goroutines outside the pool spawn into one Group
// concurrently; Wait sees every task and what each wrote.
func TestGroupFromOutside(t *testing.T) {
	var g pfor.Group
	out := make([]int, 4000)
	var wg sync.WaitGroup
	for s := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := s; i < len(out); i += 4 {
				g.Go(func(*pfor.Worker) error { out[i] = i * i; return nil })
			}
		}()
	}
	wg.Wait()
	if err := g.Wait(); err != nil {
		t.Fatalf("Wait = %v; want nil", err)
	}
	for i, v := range out {
		if v != i*i {
			t.Fatalf("out[%d] = %d after Wait; want %d", i, v, i*i)
		}
	}
}

// TestGroupFirstError: the first error stops tasks not yet started and is
// what Wait returns; the Group stays failed.
//
// Link 100 of the chain spawns link 101 before it fails, so links run on
// other workers until the failure is recorded, on link 100's way out; when
// the operating system takes that thread off its core in between, the
// chain runs on meanwhile, as it should. So a chain that ran too far is
// retried, up to 3 in all, and fails only if all did: a Group that does
// not skip runs the whole chain every time.
func TestGroupFirstError(t *testing.T) {
	const attempts = 3
	var g *pfor.Group
	counts := retryAbove(t, attempts, 200, "links of the chain ran when link 100 failed", func() (n int64) {
		g, n = firstErrorChain(t)
		return n
	})
	if len(counts) == attempts {
		t.Errorf("%v links of a 10001-task chain ran when link 100 failed, in %d chains; want the rest skipped in some chain", counts, attempts)
	}
	var ran atomic.Int64
	g.Go(func(*pfor.Worker) error { ran.Add(1); return nil })
	if err := g.Wait(); err != errFirst || ran.Load() != 0 {
		t.Errorf("Go after a failure: ran %d, Wait = %v; want 0 and %v", ran.Load(), err, errFirst)
	}
}

var errFirst = errors.New("first")

// firstErrorChain runs a chain of 10001 tasks in a new Group, each task
// spawning the next, link 100 failing with errFirst after it spawned link
// 101; it checks that Wait returns errFirst, and returns the Group and how
// many links ran.
func firstErrorChain(t *testing.T) (*pfor.Group, int64) {
	g, _ := pfor.NewGroup(context.Background())
	var ran atomic.Int64
	var link func(w *pfor.Worker, k int) error // a chain: each task spawns the next
	link = func(w *pfor.Worker, k int) error {
		ran.Add(1)
		if k < 10_000 {
			w.Go(g, func(w *pfor.Worker) error { return link(w, k+1) })
		}
		if k == 100 {
			return errFirst
		}
		return nil
	}
	g.Go(func(w *pfor.Worker) error { return link(w, 0) })
	if err := g.Wait(); err != errFirst {
		t.Fatalf("Wait = %v; want %v", err, errFirst)
	}
	return g, ran.Load()
}

// TestGroupContext: with a done context nothing runs and Wait returns the
// context's error; cancelling midway skips the rest; a context cancelled
// after every task started does not turn success into an error.
func TestGroupContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, _ := pfor.NewGroup(ctx)
	ran := false
	g.Go(func(*pfor.Worker) error { ran = true; return nil })
	if err := g.Wait(); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("done context: Wait = %v, ran %v; want context.Canceled and nothing run", err, ran)
	}

	ctx, cancel = context.WithCancel(context.Background())
	g, _ = pfor.NewGroup(ctx)
	var n atomic.Int64
	var spawn func(w *pfor.Worker, depth int) error
	spawn = func(w *pfor.Worker, depth int) error {
		if n.Add(1) == 1000 {
			cancel()
		}
		if depth > 0 {
			for range 4 {
				w.Go(g, func(w *pfor.Worker) error { return spawn(w, depth-1) })
			}
		}
		return nil
	}
	g.Go(func(w *pfor.Worker) error { return spawn(w, 8) }) // 87381 tasks if none were skipped
	if err := g.Wait(); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled midway: Wait = %v; want context.Canceled", err)
	}
	if n.Load() > 20_000 {
		t.Errorf("cancelled after 1000 tasks: %d ran; want the rest skipped", n.Load())
	}

	ctx, cancel = context.WithCancel(context.Background())
	g, _ = pfor.NewGroup(ctx)
	g.Go(func(*pfor.Worker) error { cancel(); return nil })
	if err := g.Wait(); err != nil {
		t.Errorf("cancelled by the last task: Wait = %v; want nil", err)
	}
}

// TestDoRecursive: Do inside Do inside tasks, 2^12 leaves deep, completes
// on one processor too (every waiter helps) and visits each leaf once.
func TestDoRecursive(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		var sum atomic.Int64
		var rec func(lo, hi int)
		rec = func(lo, hi int) {
			if hi-lo == 1 {
				sum.Add(int64(lo))
				return
			}
			m := (lo + hi) / 2
			pfor.Do(func() { rec(lo, m) }, func() { rec(m, hi) })
		}
		within(t, 30*time.Second, "recursive Do", func() { rec(0, 1<<12) })
		if want := int64(1<<12) * (1<<12 - 1) / 2; sum.Load() != want {
			t.Errorf("sum = %d; want %d", sum.Load(), want)
		}
	})
}
