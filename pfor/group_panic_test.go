package pfor_test

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

func blowUp(v any) { panic(v) }

// TestJoinPanics: a panic in either half of a Join or Both, stolen or run
// inline, reaches the caller of Run as a *PanicError with the value and the
// panic site's stack, after the other half has finished; the pool works on
// afterwards.
func TestJoinPanics(t *testing.T) {
	procSweep(t, func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			slowA  bool // a sleeps, so that b finishes first
			panicA bool
			panicB bool
			want   string
		}{
			{"a panics", false, true, false, "a"},
			{"b panics", false, false, true, "b"},
			{"both panic: b wins", true, true, true, "b"},
			{"slow a panics", true, true, false, "a"},
		} {
			var aDone, bDone atomic.Bool
			pe, other := recoverPanic(func() {
				pfor.Run(func(w *pfor.Worker) {
					w.Join(func(*pfor.Worker) {
						if tc.slowA {
							time.Sleep(2 * time.Millisecond)
						}
						aDone.Store(true)
						if tc.panicA {
							blowUp("a")
						}
					}, func(*pfor.Worker) {
						bDone.Store(true)
						if tc.panicB {
							blowUp("b")
						}
					})
				})
			})
			if pe == nil {
				t.Fatalf("%s: Run recovered %v (%T); want a *pfor.PanicError", tc.name, other, other)
			}
			if pe.Value != tc.want || !strings.Contains(string(pe.Stack), "blowUp") {
				t.Errorf("%s: PanicError{Value: %v} with stack:\n%s\nwant value %q and blowUp on the stack", tc.name, pe.Value, pe.Stack, tc.want)
			}
			// a always runs (it was forked before b panicked, and Join waits
			// for it or takes it back); b always runs.
			if !bDone.Load() || (!aDone.Load() && !tc.panicB) {
				t.Errorf("%s: a ran %v, b ran %v", tc.name, aDone.Load(), bDone.Load())
			}
		}
		pe, _ := recoverPanic(func() {
			pfor.Run(func(w *pfor.Worker) {
				pfor.Both(w, func(w *pfor.Worker, i int) int {
					if i == 1 {
						blowUp(i)
					}
					return i
				}, 1, 2)
			})
		})
		if pe == nil || pe.Value != 1 {
			t.Errorf("Both: recovered %v; want *PanicError{Value: 1}", pe)
		}
		var got int
		pfor.Run(func(w *pfor.Worker) { got = fibBoth(w, 20) })
		if got != fibSeq(20) {
			t.Errorf("after panics: fib(20) = %d; want %d", got, fibSeq(20))
		}
	})
}

// TestGroupPanic: a panic in a task skips the tasks not yet started and is
// re-raised by Wait, beating an error, as a *PanicError with the panic
// site's stack.
//
// The links of a chain each spawn the next; link 100 spawns link 101 and
// panics. Links keep starting on other workers until the panic stops the
// group, on link 100's way out, which can take an operating system's time
// slice if the panicking worker's thread is descheduled in between (on a
// loaded 2-core machine 4,710 links once ran). So a chain that ran too far
// is retried, up to 3 in all, and fails only if all did: a group that does
// not skip runs all 200,001 links every time.
func TestGroupPanic(t *testing.T) {
	const attempts = 3
	counts := retryAbove(t, attempts, 100_000, "links ran when link 100 panicked", func() int64 { return panicChain(t) })
	if len(counts) == attempts {
		t.Errorf("%v links of a 200001-task chain ran when link 100 panicked, in %d chains; want the rest skipped in some chain", counts, attempts)
	}

	// A panic in a task that was running when another task failed still
	// reaches Wait, and beats the error.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // the two tasks must run at once
	g, _ := pfor.NewGroup(context.Background())
	started, failed := make(chan struct{}), make(chan struct{})
	g.Go(func(*pfor.Worker) error {
		close(started)
		<-failed
		time.Sleep(time.Millisecond) // let the error be recorded
		blowUp("late")
		return nil
	})
	g.Go(func(*pfor.Worker) error {
		<-started
		defer close(failed)
		return context.DeadlineExceeded
	})
	if pe, other := recoverPanic(func() { g.Wait() }); pe == nil || pe.Value != "late" {
		t.Errorf("error, then a panic: Wait recovered %v, %v; want *PanicError{Value: \"late\"}", pe, other)
	}
}

// panicChain runs the chain of TestGroupPanic in a new Group, checks that
// Wait re-raises link 100's panic, and returns how many links ran.
func panicChain(t *testing.T) int64 {
	g, _ := pfor.NewGroup(context.Background())
	var ran atomic.Int64
	var link func(w *pfor.Worker, k int) error
	link = func(w *pfor.Worker, k int) error {
		ran.Add(1)
		if k < 200_000 {
			w.Go(g, func(w *pfor.Worker) error { return link(w, k+1) })
		}
		if k == 100 {
			blowUp("boom")
		}
		return nil
	}
	g.Go(func(w *pfor.Worker) error { return link(w, 0) })
	pe, other := recoverPanic(func() { g.Wait() })
	if pe == nil {
		t.Fatalf("Wait recovered %v; want a *pfor.PanicError", other)
	}
	if pe.Value != "boom" || !strings.Contains(string(pe.Stack), "blowUp") {
		t.Errorf("PanicError{Value: %v}, stack:\n%s\nwant \"boom\" and blowUp on the stack", pe.Value, pe.Stack)
	}
	return ran.Load()
}

// TestDoPanicSkipsRest: once a function of Do panics, functions not yet
// started do not start.
//
// The others keep starting until the panic stops the call, on fns[0]'s way
// out; when the operating system takes that thread off its core in
// between, each worker starts a function a millisecond meanwhile, as it
// should. So a call that ran too many is retried, up to 3 in all, and
// fails only if all did: a Do that does not skip runs all 1000 every time.
func TestDoPanicSkipsRest(t *testing.T) {
	const attempts = 3
	counts := retryAbove(t, attempts, 100, "of 1000 functions ran when the first panicked", func() int64 { return panicDo(t) })
	if len(counts) == attempts {
		t.Errorf("%v of 1000 functions ran when the first panicked, in %d calls of Do; want the rest skipped in some call", counts, attempts)
	}
}

// panicDo calls Do with 1000 functions of which the first panics, checks
// that the panic reaches the caller, and returns how many functions ran.
func panicDo(t *testing.T) int64 {
	var ran atomic.Int64
	fns := make([]func(), 1000)
	for i := range fns {
		fns[i] = func() {
			ran.Add(1)
			if i == 0 { // the caller runs fns[0] once it has forked the rest
				blowUp("first")
			}
			time.Sleep(time.Millisecond) // the others are slow to finish
		}
	}
	pe, _ := recoverPanic(func() { pfor.Do(fns...) })
	if pe == nil || pe.Value != "first" {
		t.Fatalf("Do recovered %v; want *PanicError{Value: \"first\"}", pe)
	}
	return ran.Load()
}
