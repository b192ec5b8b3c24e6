package pfor_test

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// onHelper reports whether the calling goroutine is one of the pool's
// helpers: a pool worker or an extra helper.
func onHelper() bool {
	buf := make([]byte, 8192)
	stack := string(buf[:runtime.Stack(buf, false)])
	return strings.Contains(stack, "sched.(*Worker).loop(") || strings.Contains(stack, "sched.(*Pool).extra(")
}

// slowSlot0 makes slot 0 of a 2-item Static call wait, up to a deadline,
// until item 1 has started, so that a helper has the time to claim slot 1
// before the caller, done with slot 0, claims it itself; then it calls body.
func slowSlot0(body func(i int)) func(i int) {
	var started atomic.Bool
	return func(i int) {
		if i == 0 {
			for deadline := time.Now().Add(2 * time.Millisecond); !started.Load() && time.Now().Before(deadline); {
				runtime.Gosched()
			}
		} else {
			started.Store(true)
		}
		body(i)
	}
}

// helperGoroutines counts the goroutines running the loop of a pool worker
// or of an extra helper.
func helperGoroutines() int {
	var buf bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&buf, 2)
	return strings.Count(buf.String(), "sched.(*Worker).loop(") + strings.Count(buf.String(), "sched.(*Pool).extra(")
}

// TestGoexitOnHelper: a body that calls runtime.Goexit on a helper (as
// t.FailNow does off the test goroutine) ends that helper; the pool counts
// it out, so that later calls start another and still run on helpers.
func TestGoexitOnHelper(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	static := pfor.WithPartitioner(partition.Static())
	var exited atomic.Int32
	for i := 0; i < 10000 && exited.Load() < 3; i++ {
		func() {
			defer func() { _ = recover() }() // the call re-raises the Goexit: TestGoexitOnHelperFailsTheCall
			pfor.Range(0, 2, slowSlot0(func(i int) {
				if i == 1 && onHelper() {
					exited.Add(1)
					runtime.Goexit()
				}
			}), pfor.WithWorkers(2), static)
		}()
	}
	if exited.Load() == 0 {
		t.Fatal("no helper ran slot 1 in 10,000 calls")
	}
	deadline := time.Now().Add(10 * time.Second)
	for pfor.Helpers() != helperGoroutines() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if h, g := pfor.Helpers(), helperGoroutines(); h != g {
		t.Fatalf("after %d helpers called Goexit: the pool counts %d helpers, %d goroutines run the helper loop", exited.Load(), h, g)
	}
	var onHelpers atomic.Int32
	for range 1000 {
		pfor.Range(0, 2, slowSlot0(func(i int) {
			if i == 1 && onHelper() {
				onHelpers.Add(1)
			}
		}), pfor.WithWorkers(2), static)
	}
	if onHelpers.Load() == 0 {
		t.Errorf("after helpers called Goexit, slot 1 ran on a helper in none of 1,000 calls")
	}
}

// waitForHelper makes the calls of body on the caller's goroutine wait, up
// to a deadline, until a helper has started a call of its own, so that a
// helper has the time to claim a slot.
func waitForHelper(body func(i int)) func(i int) {
	var started atomic.Bool
	return func(i int) {
		if onHelper() {
			started.Store(true)
		} else {
			for deadline := time.Now().Add(2 * time.Millisecond); !started.Load() && time.Now().Before(deadline); {
				runtime.Gosched()
			}
		}
		body(i)
	}
}

// TestGoexitOnHelperFailsTheCall: a body that calls runtime.Goexit on a
// helper leaves the rest of that helper's chunk undone, so the call does not
// return as if it had run every index, nor wait for the chunk forever: it
// panics with a *PanicError that names the call and Goexit.
func TestGoexitOnHelperFailsTheCall(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, p := range []partition.Partitioner{partition.Static(), partition.Auto(), partition.Stealing(), partition.Dynamic(1)} {
		for _, n := range []int{2, 1000} {
			var exited atomic.Int32
			for i := 0; i < 1000 && exited.Load() == 0; i++ {
				var ran atomic.Int32
				var got any
				returned := false
				within(t, 10*time.Second, fmt.Sprintf("%s, %d items: a call whose body called Goexit on a helper", p.Name(), n), func() {
					defer func() { got = recover() }()
					pfor.Range(0, n, waitForHelper(func(int) {
						if onHelper() && exited.CompareAndSwap(0, 1) {
							runtime.Goexit()
						}
						ran.Add(1)
					}), pfor.WithWorkers(2), pfor.WithPartitioner(p))
					returned = true
				})
				if exited.Load() == 0 {
					if !returned || ran.Load() != int32(n) {
						t.Fatalf("%s, %d items, no Goexit: returned %v (%v) after %d calls of the body", p.Name(), n, returned, got, ran.Load())
					}
					continue
				}
				pe, ok := got.(*pfor.PanicError)
				if !ok || pe.Call != "Range" || !strings.Contains(fmt.Sprint(pe.Value), "runtime.Goexit") {
					t.Fatalf("%s, %d items: a body called Goexit on a helper, %d others ran; Range returned %v, recovered %#v; want a *PanicError of Range naming runtime.Goexit",
						p.Name(), n, ran.Load(), returned, got)
				}
			}
			if exited.Load() == 0 {
				t.Fatalf("%s, %d items: no helper ran an index in 1,000 calls", p.Name(), n)
			}
		}
	}
}

// TestGoexitOnCaller: a body that calls runtime.Goexit on the caller's
// goroutine (t.FailNow in slot 0) ends the call: its job leaves the pool's
// posted jobs and no helper starts one of its slots afterwards.
func TestGoexitOnCaller(t *testing.T) {
	before := pfor.PostedJobs()
	var after atomic.Int32
	exited := make(chan struct{})
	release := make(chan struct{})
	go func() {
		defer close(exited)
		pfor.Range(0, 4, func(i int) {
			if i == 0 {
				runtime.Goexit()
			}
			<-release
			after.Add(1)
		}, pfor.WithWorkers(4), pfor.WithPartitioner(partition.Static()))
	}()
	<-exited
	started := pfor.PostedJobs()
	close(release)
	time.Sleep(20 * time.Millisecond)
	if started != before || pfor.PostedJobs() != before {
		t.Errorf("posted jobs: %d before, %d once the caller had called Goexit, %d later; want %d", before, started, pfor.PostedJobs(), before)
	}
	if n := after.Load(); n > 3 {
		t.Errorf("%d slots of 3 ran after the caller called Goexit", n)
	}
}

// TestHelperLabels: a helper running a slot of a WithLabel call carries
// loop=name besides its own stealkit and helper labels.
func TestHelperLabels(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for range 100 {
		var prof string
		pfor.Range(0, 2, slowSlot0(func(i int) {
			if i == 1 && onHelper() {
				var buf bytes.Buffer
				pprof.Lookup("goroutine").WriteTo(&buf, 1)
				prof = buf.String()
			}
		}), pfor.WithWorkers(2), pfor.WithPartitioner(partition.Static()), pfor.WithLabel("histogram"))
		if prof == "" {
			continue
		}
		for _, blk := range strings.Split(prof, "\n\n") {
			if !strings.Contains(blk, "TestHelperLabels.func") {
				continue
			}
			for _, want := range []string{`"loop":"histogram"`, `"stealkit":"pfor helper"`, `"helper":"`} {
				if !strings.Contains(blk, want) {
					t.Errorf("a helper running a slot of WithLabel(\"histogram\") lacks the label %s:\n%s", want, blk)
				}
			}
			return
		}
		t.Fatalf("the goroutine profile taken by the body has no stack of the body:\n%s", prof)
	}
	t.Fatal("no helper ran slot 1 in 100 calls")
}

// TestGoexitInStolenForkFailsTheCall: a function given to Join, Both or Do
// that calls runtime.Goexit on the worker that stole it has not returned,
// so the call does not return as if it had: it panics with a *PanicError
// that names the call and Goexit.
func TestGoexitInStolenForkFailsTheCall(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	forks := []struct {
		call string
		fork func(stolen, inline func())
	}{
		{"Join", func(stolen, inline func()) { pfor.Join(stolen, inline) }},
		{"Do", func(stolen, inline func()) { pfor.Do(inline, stolen) }},
		{"Run", func(stolen, inline func()) {
			pfor.Run(func(w *pfor.Worker) {
				pfor.Both(w, func(_ *pfor.Worker, f func()) int { f(); return 0 }, stolen, inline)
			})
		}},
	}
	for _, fk := range forks {
		var exited atomic.Int32
		for i := 0; i < 1000 && exited.Load() == 0; i++ {
			var started atomic.Bool
			var got any
			returned := false
			within(t, 10*time.Second, fk.call+" of a function calling Goexit on a helper", func() {
				defer func() { got = recover() }()
				fk.fork(func() {
					started.Store(true)
					if onHelper() && exited.CompareAndSwap(0, 1) {
						runtime.Goexit()
					}
				}, func() {
					for deadline := time.Now().Add(2 * time.Millisecond); !started.Load() && time.Now().Before(deadline); {
						runtime.Gosched()
					}
				})
				returned = true
			})
			if exited.Load() == 0 {
				if !returned {
					t.Fatalf("%s, no Goexit: did not return (%v)", fk.call, got)
				}
				continue
			}
			pe, ok := got.(*pfor.PanicError)
			if !ok || pe.Call != fk.call || !strings.Contains(fmt.Sprint(pe.Value), "runtime.Goexit") {
				t.Fatalf("%s: a stolen function called Goexit; the call returned %v, recovered %#v; want a *PanicError of %s naming runtime.Goexit",
					fk.call, returned, got, fk.call)
			}
		}
		if exited.Load() == 0 {
			t.Fatalf("%s: no helper ran the forked function in 1,000 calls", fk.call)
		}
	}
}

// waitFor waits until cond reports true or d has passed, and reports cond.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond() && time.Now().Before(deadline); {
		runtime.Gosched()
	}
	return cond()
}

// TestGoexitOnThiefWithForkOut: a helper X runs a stolen function that
// forks a with Worker.Join or Both, and after its own half takes back
// from its deque a Group task that calls runtime.Goexit. a is part of the
// call: whether a is still on X's deque (steal false) or run by a third
// worker (steal true), the call must not return while a runs, nor may a
// run after the call returned; the call panics naming Goexit.
func TestGoexitOnThiefWithForkOut(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	forks := []struct {
		name string
		fork func(w *pfor.Worker, a, b func(*pfor.Worker))
	}{
		{"Worker.Join", func(w *pfor.Worker, a, b func(*pfor.Worker)) { w.Join(a, b) }},
		{"Both", func(w *pfor.Worker, a, b func(*pfor.Worker)) {
			pfor.Both(w, func(w *pfor.Worker, f func(*pfor.Worker)) int { f(w); return 0 }, a, b)
		}},
	}
	for _, steal := range []bool{false, true} {
		if steal {
			runtime.GOMAXPROCS(3) // a third worker to steal a from X
		} else {
			runtime.GOMAXPROCS(2)
		}
		for _, fk := range forks {
			what := fmt.Sprintf("%s, a stolen %v", fk.name, steal)
			counted := 0
			for i := 0; i < 1000 && counted < 3; i++ {
				var started, exited, settled, returned, aStarted, aOnOther, aDone, aLate atomic.Bool
				var xid atomic.Pointer[string]
				var g pfor.Group
				a := func(*pfor.Worker) {
					aStarted.Store(true)
					if returned.Load() {
						aLate.Store(true)
					}
					if goid() != *xid.Load() {
						// Stolen from X, or run after X's Goexit: wait
						// until X's task called Goexit, then for as long
						// as the call would take to return if it did not
						// wait for a.
						aOnOther.Store(onHelper())
						if waitFor(time.Second, func() bool { return exited.Load() || settled.Load() }) && exited.Load() {
							waitFor(50*time.Millisecond, returned.Load)
						}
					}
					if returned.Load() {
						aLate.Store(true)
					}
					aDone.Store(true)
				}
				b := func(w *pfor.Worker) {
					if steal && !waitFor(2*time.Millisecond, aStarted.Load) {
						settled.Store(true)
						return
					}
					w.Go(&g, func(*pfor.Worker) error {
						if goid() == *xid.Load() {
							exited.Store(true)
							runtime.Goexit()
						}
						settled.Store(true)
						return nil
					})
				}
				var got any
				within(t, 10*time.Second, what, func() {
					defer func() {
						got = recover()
						returned.Store(true)
					}()
					pfor.Run(func(w *pfor.Worker) {
						w.Join(func(w *pfor.Worker) {
							started.Store(true)
							if !onHelper() {
								return
							}
							id := goid()
							xid.Store(&id)
							fk.fork(w, a, b)
						}, func(*pfor.Worker) {
							// Not stealing a from X meanwhile, nor when
							// it waits for X after a Goexit.
							if waitFor(2*time.Millisecond, started.Load) {
								waitFor(10*time.Millisecond, exited.Load)
							}
						})
					})
				})
				if !exited.Load() {
					if got != nil {
						t.Fatalf("%s, no Goexit: the call panicked: %v", what, got)
					}
					continue
				}
				if steal && !aOnOther.Load() { // the caller took a
					waitFor(10*time.Second, func() bool { return !aStarted.Load() || aDone.Load() })
					continue
				}
				counted++
				if !steal {
					// a left on X's deque runs on X's replacement, which
					// pops its deque before it takes a slot of a loop.
					for j := 0; j < 1000; j++ {
						var onH atomic.Bool
						pfor.Range(0, 2, waitForHelper(func(int) {
							if onHelper() {
								onH.Store(true)
							}
						}), pfor.WithWorkers(2), pfor.WithPartitioner(partition.Static()))
						if onH.Load() {
							break
						}
					}
				}
				waitFor(10*time.Second, func() bool { return !aStarted.Load() || aDone.Load() })
				pe, ok := got.(*pfor.PanicError)
				if !ok || pe.Call != "Run" || !strings.Contains(fmt.Sprint(pe.Value), "runtime.Goexit") {
					t.Fatalf("%s: a task called Goexit on X; recovered %#v; want a *PanicError of Run naming runtime.Goexit", what, got)
				}
				if aLate.Load() {
					t.Fatalf("%s: a task called Goexit on X; the forked function ran after the call returned", what)
				}
			}
			if counted == 0 {
				t.Fatalf("%s: no helper called Goexit in the set-up in 1,000 calls", what)
			}
		}
	}
}
