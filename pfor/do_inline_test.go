package pfor_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// Do and Join called while every worker of the pool is busy run their
// functions one after another on the caller, without entering the pool;
// called once a worker is free, they fork again.

// forkCalls are Do and Join as one shape: fork(first, second) runs first
// on the caller at once, and second after it on the caller unless a free
// worker takes it (Join's b is first).
var forkCalls = []struct {
	name string
	fork func(first, second func())
}{
	{"Do", func(first, second func()) { pfor.Do(first, second) }},
	{"Join", func(first, second func()) { pfor.Join(second, first) }},
}

// busyPool keeps every worker of the pool busy in the body of a loop,
// called on another goroutine, until release is called (or the test ends):
// busyPool returns once each worker runs a body and none searches or
// sleeps. release waits for the loop to return.
//
// It posts the loop once the extra helpers of earlier wide calls have
// ended: one still searching would take a worker's slot and leave that
// worker idle.
func busyPool(t testing.TB) (release func()) {
	t.Helper()
	n := runtime.GOMAXPROCS(0)
	deadline := time.Now().Add(10 * time.Second)
	pfor.Run(func(*pfor.Worker) {}) // the pool follows GOMAXPROCS: workers above it retire
	for pfor.TaskWorkers() != n-1 || pfor.Helpers() != n-1 {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, %d pool workers and %d extra helpers at GOMAXPROCS %d; want %d and none",
				pfor.TaskWorkers(), pfor.Helpers()-pfor.TaskWorkers(), n, n-1)
		}
		time.Sleep(100 * time.Microsecond)
	}
	hold := make(chan struct{})
	returned := make(chan struct{})
	var onWorkers atomic.Int32
	go func() {
		defer close(returned)
		pfor.Range(0, n, func(int) {
			if onHelper() {
				onWorkers.Add(1)
			}
			<-hold
		}, pfor.WithWorkers(n), pfor.WithPartitioner(partition.Static()))
	}()
	var once sync.Once
	release = func() { once.Do(func() { close(hold); <-returned }) }
	t.Cleanup(release)
	for {
		searching, sleeping := pfor.TaskIdle()
		if int(onWorkers.Load()) == n-1 && searching == 0 && sleeping == 0 {
			return release
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, %d of %d pool workers in the loop's bodies, %d searching, %d sleeping; want all in, none idle",
				onWorkers.Load(), n-1, searching, sleeping)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// awaitFreeWorker waits until some worker of the pool searches for work or
// sleeps, and reports whether one did within 10 s.
func awaitFreeWorker() bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if searching, sleeping := pfor.TaskIdle(); searching+sleeping > 0 {
			return true
		}
		time.Sleep(100 * time.Microsecond)
	}
	return false
}

// TestForkWhileBusyRunsInline: Do and Join called while every worker is
// busy run their second function on the caller, after the first, even
// when the first frees the workers and waits for them: nothing was left
// for a free worker to take.
func TestForkWhileBusyRunsInline(t *testing.T) {
	for _, call := range forkCalls {
		t.Run(call.name, func(t *testing.T) {
			procSweepOf(t, []int{2, 3, 8}, func(t *testing.T) {
				release := busyPool(t)
				caller := goid()
				var mu sync.Mutex // held by each function as it appends to order
				var order []string
				var secondOn string
				var secondStarted atomic.Bool
				freed := true
				call.fork(func() {
					mu.Lock()
					order = append(order, "first")
					mu.Unlock()
					release()
					freed = awaitFreeWorker()
					// A fork would have left second where the free worker
					// takes it within this wait.
					for deadline := time.Now().Add(100 * time.Millisecond); !secondStarted.Load() && time.Now().Before(deadline); {
						time.Sleep(100 * time.Microsecond)
					}
				}, func() {
					secondStarted.Store(true)
					mu.Lock()
					defer mu.Unlock()
					secondOn = goid()
					order = append(order, "second")
				})
				if !freed {
					t.Fatalf("%s: no pool worker searched or slept within 10 s of the loop's end", call.name)
				}
				mu.Lock()
				defer mu.Unlock()
				if got := fmt.Sprint(order); got != "[first second]" || secondOn != caller {
					t.Errorf("%s called while every worker was busy: ran %s, second on goroutine %s; want [first second], both on the caller, %s",
						call.name, got, secondOn, caller)
				}
			})
		})
	}
}

// TestForkAfterBusyLoop: a recursive Do (and Join) tree started while every
// worker is busy with a loop runs its top levels inline; once the loop has
// ended, the calls made below fork again and the freed workers take part.
// Leaf 0 ends the loop and waits until a worker is free; leaf 2 belongs
// to the first call made after that (leaves 0 and 1 are the halves of an
// inline call), which must fork: leaf 2 waits until a leaf has run on
// another goroutine, which leaf 3, taken by the free worker, does.
func TestForkAfterBusyLoop(t *testing.T) {
	const depth = 8
	for _, call := range forkCalls {
		t.Run(call.name, func(t *testing.T) {
			procSweepOf(t, []int{2, 3, 8}, func(t *testing.T) {
				release := busyPool(t)
				caller := goid()
				runs := make([]atomic.Int32, 1<<depth)
				var elsewhere atomic.Int32
				var freed, forked atomic.Bool
				freed.Store(true)
				forked.Store(true)
				leaf := func(i int) {
					runs[i].Add(1)
					if goid() != caller {
						elsewhere.Add(1)
					}
					switch i {
					case 0:
						release()
						freed.Store(awaitFreeWorker())
					case 2:
						deadline := time.Now().Add(10 * time.Second)
						for elsewhere.Load() == 0 && time.Now().Before(deadline) {
							time.Sleep(100 * time.Microsecond)
						}
						forked.Store(elsewhere.Load() > 0)
					}
				}
				var tree func(d, i int)
				tree = func(d, i int) {
					if d == 0 {
						leaf(i)
						return
					}
					call.fork(func() { tree(d-1, 2*i) }, func() { tree(d-1, 2*i+1) })
				}
				tree(depth, 0)
				if !freed.Load() {
					t.Fatalf("%s: no pool worker searched or slept within 10 s of the loop's end", call.name)
				}
				if !forked.Load() {
					t.Errorf("%s tree of depth %d started while every worker was busy: no leaf ran on a worker freed since; want leaf 3 taken by one", call.name, depth)
				}
				for i := range runs {
					if n := runs[i].Load(); n != 1 {
						t.Errorf("%s tree: leaf %d ran %d times; want 1", call.name, i, n)
					}
				}
			})
		})
	}
}

// TestForkWhileBusyPanics: called while every worker is busy, Do and Join
// run each function once, and re-raise a panic of either as a *PanicError
// with the original value and Call "Do" or "Join"; Do starts no function
// after one that panicked.
func TestForkWhileBusyPanics(t *testing.T) {
	procSweepOf(t, []int{1, 2, 8}, func(t *testing.T) {
		busyPool(t)
		for _, call := range forkCalls {
			for bad := range 3 { // 0: first panics, 1: second, 2: neither
				var runs [2]atomic.Int32
				fn := func(k int) func() {
					return func() {
						runs[k].Add(1)
						if k == bad {
							panic(k)
						}
					}
				}
				pe, other := recoverPanic(func() { call.fork(fn(0), fn(1)) })
				switch {
				case bad == 2 && (pe != nil || other != nil):
					t.Errorf("%s, nothing panicking: recovered %#v, %v; want no panic", call.name, pe, other)
				case bad < 2 && (pe == nil || pe.Value != bad || pe.Call != call.name || pe.Stack == nil):
					t.Errorf("%s, function %d panicking: recovered %#v, %v; want *PanicError{Value: %d, Call: %q} with a stack",
						call.name, bad, pe, other, bad, call.name)
				}
				first, second := runs[0].Load(), runs[1].Load()
				wantSecond := "1"
				if bad == 0 { // Do starts nothing after a panic; Join may run a or not
					wantSecond = map[string]string{"Do": "0", "Join": "0 or 1"}[call.name]
				}
				if first != 1 || !strings.Contains(wantSecond, fmt.Sprint(second)) {
					t.Errorf("%s, function %d panicking: functions ran %d and %d times; want 1 and %s",
						call.name, bad, first, second, wantSecond)
				}
			}
		}
	})
}

// TestForkStartsThePool: Do and Join alone start the pool's workers, and
// fork to them in that very call, after GOMAXPROCS has grown from 1, when
// no worker runs and so none is searching or asleep either: the first
// call of a process runs its functions in parallel as later ones do.
func TestForkStartsThePool(t *testing.T) {
	for _, call := range forkCalls {
		t.Run(call.name, func(t *testing.T) {
			soloPool(t)
			runtime.GOMAXPROCS(2) // soloPool restores the old value when the test ends
			caller := goid()
			var secondOn atomic.Value // the goroutine of the second function
			call.fork(func() {
				for deadline := time.Now().Add(5 * time.Second); secondOn.Load() == nil && time.Now().Before(deadline); {
					time.Sleep(100 * time.Microsecond)
				}
			}, func() { secondOn.Store(goid()) })
			if g := secondOn.Load(); g == caller {
				t.Fatalf("%s at GOMAXPROCS 2, the pool's workers retired at 1: second function on the caller after the first returned; want a worker the call started to take it", call.name)
			}
		})
	}
}

// TestDoAtOneProcStaysOut: at GOMAXPROCS 1, where the pool has no worker
// and none is idle, Do calls its functions without entering the pool,
// call after call: a Do of more than maxDoFns functions allocates nothing
// then, where entering the pool would copy them.
func TestDoAtOneProcStaysOut(t *testing.T) {
	soloPool(t)
	var ran atomic.Int64
	fns := make([]func(), 2000)
	for i := range fns {
		fns[i] = func() { ran.Add(1) }
	}
	if a := testing.AllocsPerRun(20, func() { pfor.Do(fns...) }); a != 0 {
		t.Errorf("Do of %d functions at GOMAXPROCS 1: %v allocations per call; want 0", len(fns), a)
	}
	if n := ran.Load(); n != 21*int64(len(fns)) { // AllocsPerRun calls once more to warm up
		t.Errorf("Do of %d functions at GOMAXPROCS 1, 21 calls: %d functions ran; want %d", len(fns), n, 21*len(fns))
	}
}

// TestBusyNeedsAWorker: the pool reads as busy, the test Do and Join make
// first, while its workers run and none is idle, and not once they have
// retired at GOMAXPROCS 1, when none is idle either: then only GOMAXPROCS
// tells whether workers should start (TestForkStartsThePool).
func TestBusyNeedsAWorker(t *testing.T) {
	procSweepOf(t, []int{2, 8}, func(t *testing.T) {
		release := busyPool(t)
		if !pfor.TaskBusy() {
			t.Errorf("every worker in a loop's body: pool not busy; want busy")
		}
		release()
	})
	soloPool(t)
	if searching, sleeping := pfor.TaskIdle(); searching != 0 || sleeping != 0 || pfor.TaskBusy() {
		t.Errorf("GOMAXPROCS 1, workers retired: %d searching, %d sleeping, busy %v; want 0, 0, not busy",
			searching, sleeping, pfor.TaskBusy())
	}
}

// TestDoInlinePanicStopsTheRest: Do called while every worker is busy
// calls its functions in order on the caller; when one panics, those after
// it never start, and the panic reaches the caller as a *PanicError with
// Call "Do", the original value, and the stack of the panic site.
func TestDoInlinePanicStopsTheRest(t *testing.T) {
	procSweepOf(t, []int{2, 8}, func(t *testing.T) {
		busyPool(t)
		caller := goid()
		for _, n := range []int{2, 3, 5} {
			for bad := range n {
				var ran []int // appended to on the caller only, as checked
				fns := make([]func(), n)
				for i := range fns {
					fns[i] = func() {
						if g := goid(); g != caller {
							t.Errorf("Do of %d, fns[%d]: ran on goroutine %s; want the caller, %s", n, i, g, caller)
							return
						}
						ran = append(ran, i)
						if i == bad {
							inlinePanicSite(i)
						}
					}
				}
				pe, other := recoverPanic(func() { pfor.Do(fns...) })
				if pe == nil || pe.Value != bad || pe.Call != "Do" || !strings.Contains(string(pe.Stack), "inlinePanicSite") {
					t.Errorf("Do of %d, fns[%d] panicking: recovered %#v, %v; want *PanicError{Value: %d, Call: \"Do\"} with the panic site in its stack",
						n, bad, pe, other, bad)
				}
				if want := fmt.Sprint(seq(bad + 1)); fmt.Sprint(ran) != want {
					t.Errorf("Do of %d, fns[%d] panicking: ran %v; want %s", n, bad, ran, want)
				}
			}
		}
	})
}

//go:noinline
func inlinePanicSite(v int) { panic(v) }

// TestForkWhileBusyGoexit: a function that calls runtime.Goexit, run by Do
// or Join while every worker is busy, ends the caller's goroutine as a
// Goexit of the caller's own would: its deferred calls run, the call does
// not return, and the pool works on.
func TestForkWhileBusyGoexit(t *testing.T) {
	procSweepOf(t, []int{1, 2, 8}, func(t *testing.T) {
		release := busyPool(t)
		for _, call := range forkCalls {
			var returned, deferred atomic.Bool
			done := make(chan struct{})
			go func() {
				defer close(done)
				defer deferred.Store(true)
				call.fork(func() { runtime.Goexit() }, func() {})
				returned.Store(true)
			}()
			within(t, 10*time.Second, call.name+" of a function calling Goexit", func() { <-done })
			if returned.Load() || !deferred.Load() {
				t.Errorf("%s, first function calling Goexit: call returned %v, caller's deferred call ran %v; want false, true",
					call.name, returned.Load(), deferred.Load())
			}
		}
		release()
		var ran atomic.Int32
		pfor.Do(func() { ran.Add(1) }, func() { ran.Add(1) })
		if ran.Load() != 2 {
			t.Errorf("Do after the Goexits ran %d of 2 functions; want 2", ran.Load())
		}
	})
}
