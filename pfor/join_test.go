package pfor_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

func fibJoinTop(n int) int {
	if n < 2 {
		return n
	}
	var x, y int
	pfor.Join(func() { x = fibJoinTop(n - 1) }, func() { y = fibJoinTop(n - 2) })
	return x + y
}

// TestTopJoinFromAnywhere: the top-level Join runs both functions and returns
// after both, called from outside the pool, from a task, from a function
// given to Do and from a loop body, nested, at GOMAXPROCS 1 to 8 (more
// goroutines than cores), with no goroutine left behind.
func TestTopJoinFromAnywhere(t *testing.T) {
	base := goroutines(t)
	const n, want = 16, 987
	for _, procs := range []int{1, 2, 3, 8} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			if got := fibJoinTop(n); got != want {
				t.Errorf("outside the pool: fib(%d) = %d; want %d", n, got, want)
			}
			var inTask int
			pfor.Run(func(*pfor.Worker) { inTask = fibJoinTop(n) })
			if inTask != want {
				t.Errorf("in a task: fib(%d) = %d; want %d", n, inTask, want)
			}
			var g pfor.Group
			var inGroup atomic.Int64
			for range 4 {
				g.Go(func(*pfor.Worker) error { inGroup.Add(int64(fibJoinTop(n))); return nil })
			}
			if err := g.Wait(); err != nil || inGroup.Load() != 4*want {
				t.Errorf("in Group tasks: sum of fib(%d) = %d, %v; want %d, nil", n, inGroup.Load(), err, 4*want)
			}
			var inLoop atomic.Int64
			pfor.Range(0, 8, func(int) { inLoop.Add(int64(fibJoinTop(n))) }, pfor.WithGrain(1))
			if inLoop.Load() != 8*want {
				t.Errorf("in loop bodies: sum of fib(%d) = %d; want %d", n, inLoop.Load(), 8*want)
			}
		})
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); { // exiting goroutines may wait for a core
		if goroutines(t) <= base {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Errorf("%d goroutines besides the pools' workers; want at most %d as before", goroutines(t), base)
}

// TestTopJoinPanics: a panic in either function reaches Join's caller as a
// *PanicError with Call "Join", after both have stopped; b's panic wins.
func TestTopJoinPanics(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for _, tc := range []struct {
				name string
				a, b func()
				want any
			}{
				{"a", func() { panic("in a") }, func() {}, "in a"},
				{"b", func() {}, func() { panic("in b") }, "in b"},
				{"both", func() { panic("in a") }, func() { panic("in b") }, "in b"},
			} {
				pe, other := recoverPanic(func() { pfor.Join(tc.a, tc.b) })
				if pe == nil || pe.Value != tc.want || pe.Call != "Join" {
					t.Errorf("GOMAXPROCS %d, panic in %s: recovered %#v, %v; want *PanicError{Value: %q, Call: \"Join\"}", procs, tc.name, pe, other, tc.want)
				}
			}
		}()
	}
}

// TestTopJoinStolenHalfPanics: a's panic on the worker that stole it reaches
// the caller named "Join", as the thief wraps it without a name.
func TestTopJoinStolenHalfPanics(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for range 50 {
		var started atomic.Bool
		pe, _ := recoverPanic(func() {
			pfor.Join(func() { started.Store(true); panic("stolen") }, func() {
				for i := 0; !started.Load() && i < 1e6; i++ { // give a thief the time to take a
					runtime.Gosched()
				}
			})
		})
		if pe == nil || pe.Value != "stolen" || pe.Call != "Join" {
			t.Fatalf("Join with a stolen half that panics: recovered %#v; want *PanicError{Value: \"stolen\", Call: \"Join\"}", pe)
		}
	}
}

// TestGoWait: a future started with Go, which takes no Worker, is collected
// with Wait, any number of times; its panic is re-raised by each Wait with
// Call "Future".
func TestGoWait(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			fs := make([]*pfor.Future[int], 100)
			for i := range fs {
				fs[i] = pfor.Go(func() int { return fibJoinTop(10) + i })
			}
			for i, f := range fs {
				if a, b := f.Wait(), f.Wait(); a != 55+i || b != a {
					t.Fatalf("GOMAXPROCS %d: Go(fib 10 + %d).Wait() = %d then %d; want %d", procs, i, a, b, 55+i)
				}
			}
			bad := pfor.Go(func() int { panic("future") })
			for range 2 {
				pe, other := recoverPanic(func() { bad.Wait() })
				if pe == nil || pe.Value != "future" || pe.Call != "Future" {
					t.Errorf("GOMAXPROCS %d: Wait of a panicking future: %#v, %v; want *PanicError{Value: \"future\", Call: \"Future\"}", procs, pe, other)
				}
			}
		}()
	}
}

// TestForkJoinMayRunOneAfterAnother: the contract Do and Join state. With
// no worker free (GOMAXPROCS 1: the pool has none), every function runs
// on the caller's goroutine, one after another, Join's b before a and Do's
// fns[0] first; so functions that wait for each other would wait forever.
func TestForkJoinMayRunOneAfterAnother(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	pfor.Run(func(*pfor.Worker) {}) // the pool follows GOMAXPROCS: its workers retire
	for i := 0; pfor.TaskWorkers() > 0; i++ {
		if i == 1000 {
			t.Fatalf("%d task pool workers at GOMAXPROCS 1; want none", pfor.TaskWorkers())
		}
		time.Sleep(time.Millisecond)
	}
	me := goid()
	var order []string
	record := func(name string) func() {
		return func() {
			if g := goid(); g != me {
				t.Errorf("%s ran on goroutine %s; want the caller's, %s", name, g, me)
			}
			order = append(order, name)
		}
	}
	pfor.Join(record("a"), record("b"))
	pfor.Do(record("f0"), record("f1"), record("f2"))
	if got, want := fmt.Sprint(order), "[b a f0 f1 f2]"; got != want {
		t.Errorf("order at GOMAXPROCS 1: %s; want %s (b, then a taken back; fns[0], then the halves taken back)", got, want)
	}
}
