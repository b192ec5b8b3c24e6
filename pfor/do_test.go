package pfor_test

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// soloPool sets GOMAXPROCS to 1 until the test ends and waits for the task
// pool's workers to retire: every fork then runs on the caller, in order.
func soloPool(t *testing.T) {
	t.Helper()
	prev := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	pfor.Run(func(*pfor.Worker) {}) // the pool follows GOMAXPROCS: its workers retire
	for i := 0; pfor.TaskWorkers() > 0; i++ {
		if i == 1000 {
			t.Fatalf("%d task pool workers at GOMAXPROCS 1; want none", pfor.TaskWorkers())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestDoAllocatesNothing: Do allocates nothing per call, for two functions
// (whose variadic slice stays on the caller's stack) and for more.
func TestDoAllocatesNothing(t *testing.T) {
	nop := func() {}
	procSweepOf(t, []int{1, 2, 4}, func(t *testing.T) {
		if a := testing.AllocsPerRun(500, func() { pfor.Do(nop, nop) }); a != 0 {
			t.Errorf("Do(nop, nop): %v allocations per call; want 0", a)
		}
		for _, k := range []int{3, 8, 64} {
			fns := make([]func(), k)
			for i := range fns {
				fns[i] = nop
			}
			if a := testing.AllocsPerRun(500, func() { pfor.Do(fns...) }); a != 0 {
				t.Errorf("Do with %d functions: %v allocations per call; want 0", k, a)
			}
		}
	})
}

// TestDoCallsEachOnce: every function of Do runs exactly once, for every
// count of functions, with Do nested in Do, from more goroutines than
// cores, with preemption injected in the functions.
func TestDoCallsEachOnce(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for k := range 40 {
					calls := make([]atomic.Int32, k*3)
					fns := make([]func(), k)
					for i := range fns {
						fns[i] = func() {
							if (i+g)%3 == 0 {
								runtime.Gosched()
							}
							pfor.Do(func() { calls[3*i].Add(1) }, func() { calls[3*i+1].Add(1) },
								func() { calls[3*i+2].Add(1) })
						}
					}
					pfor.Do(fns...)
					for i := range calls {
						if n := calls[i].Load(); n != 1 {
							t.Errorf("goroutine %d: Do with %d functions: inner function %d ran %d times; want 1", g, k, i, n)
						}
					}
				}
			})
		}
		wg.Wait()
	})
}

// TestDoPanicReachesCaller: whichever function panics, Do re-raises its
// panic as a *PanicError with Call "Do" after running no function twice.
func TestDoPanicReachesCaller(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		for k := 1; k <= 17; k++ {
			for bad := range k {
				calls := make([]atomic.Int32, k)
				fns := make([]func(), k)
				for i := range fns {
					fns[i] = func() {
						calls[i].Add(1)
						if i == bad {
							panic(i)
						}
					}
				}
				pe, other := recoverPanic(func() { pfor.Do(fns...) })
				if pe == nil || pe.Value != bad || pe.Call != "Do" {
					t.Fatalf("Do with %d functions, fns[%d] panicking: recovered %#v, %v; want *PanicError{Value: %d, Call: \"Do\"}", k, bad, pe, other, bad)
				}
				for i := range calls {
					if n := calls[i].Load(); n > 1 || i == bad && n != 1 {
						t.Fatalf("Do with %d functions, fns[%d] panicking: fns[%d] ran %d times", k, bad, i, n)
					}
				}
			}
		}
	})
}

// TestDoPanicStopsTheRest: with the caller alone (GOMAXPROCS 1), Do runs
// fns in order, so a panic in fns[bad] leaves exactly fns[bad+1:] unrun;
// the next Do on the same guest starts afresh, neither stopped nor
// re-raising the old panic.
func TestDoPanicStopsTheRest(t *testing.T) {
	soloPool(t)
	for k := 2; k <= 17; k++ {
		for bad := range k {
			var ran []int
			fns := make([]func(), k)
			for i := range fns {
				fns[i] = func() {
					ran = append(ran, i)
					if i == bad {
						panic(i)
					}
				}
			}
			pe, other := recoverPanic(func() { pfor.Do(fns...) })
			if pe == nil || pe.Value != bad {
				t.Fatalf("Do with %d functions, fns[%d] panicking: recovered %#v, %v; want *PanicError{Value: %d}", k, bad, pe, other, bad)
			}
			if got, want := fmt.Sprint(ran), fmt.Sprint(seq(bad+1)); got != want {
				t.Fatalf("Do with %d functions, fns[%d] panicking: ran %s; want %s", k, bad, got, want)
			}
			ran = nil
			pe, other = recoverPanic(func() { pfor.Do(fns[bad+1:]...) })
			if pe != nil || other != nil {
				t.Fatalf("Do after a panicking Do: recovered %#v, %v; want no panic", pe, other)
			}
			if got, want := len(ran), k-bad-1; got != want {
				t.Fatalf("Do after a panicking Do: %d of %d functions ran", got, want)
			}
		}
	}
}

// seq returns [0, 1, ..., n-1].
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestDoNestedPanic: a panic in a nested Do passes through the outer one
// unchanged: the same *PanicError, named by the inner call.
func TestDoNestedPanic(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		var inner *pfor.PanicError
		pe, other := recoverPanic(func() {
			pfor.Do(func() {}, func() {
				defer func() {
					r := recover()
					inner, _ = r.(*pfor.PanicError)
					panic(r)
				}()
				pfor.Do(func() {}, func() { panic("inner") })
			})
		})
		if pe == nil || pe != inner || pe.Value != "inner" || pe.Call != "Do" {
			t.Fatalf("nested Do panic: recovered %#v, %v; want the inner *PanicError %p, Call \"Do\"", pe, other, inner)
		}
	})
}

// TestDoNilRunsNothing: a nil function is found before any function runs,
// for two functions (Do's shortest path) as for more.
func TestDoNilRunsNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		nils []int // positions of the nil functions
		n    int
		want string
	}{
		{"Do(f, nil)", []int{1}, 2, "pfor: Do: fns[1] is nil"},
		{"Do(nil, g)", []int{0}, 2, "pfor: Do: fns[0] is nil"},
		{"Do(f, g, nil)", []int{2}, 3, "pfor: Do: fns[2] is nil"},
	} {
		ran := false
		fns := make([]func(), c.n)
		for i := range fns {
			fns[i] = func() { ran = true }
		}
		for _, i := range c.nils {
			fns[i] = nil
		}
		_, other := recoverPanic(func() { pfor.Do(fns...) })
		if other != c.want || ran {
			t.Errorf("%s: panicked with %v, a function ran: %v; want %q before any runs", c.name, other, ran, c.want)
		}
	}
}

// TestDoManyFunctions: more functions than a guest keeps room for (1024)
// each run once too, twice in a row on the same guests.
func TestDoManyFunctions(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		const k = 3000
		calls := make([]atomic.Int32, k)
		fns := make([]func(), k)
		for i := range fns {
			fns[i] = func() { calls[i].Add(1) }
		}
		for round := 1; round <= 2; round++ {
			pfor.Do(fns...)
			for i := range calls {
				if n := calls[i].Load(); n != int32(round) {
					t.Fatalf("after %d calls of Do with %d functions: fns[%d] ran %d times", round, k, i, n)
				}
			}
		}
	})
}
