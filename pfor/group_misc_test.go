package pfor_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// TestGoexitInTask: a task or a future's function that calls
// runtime.Goexit did not return, so Wait and Get do not report it as
// finished: they panic with a *PanicError that names the call and Goexit.
// A pool worker ended this way is replaced. (Nothing here waits while the
// tasks run: a waiter takes part in the work, and a Goexit in a task it
// ran would end its goroutine.)
func TestGoexitInTask(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // a pool worker to run the tasks
	pfor.Run(func(*pfor.Worker) {})                 // start the pool
	want := runtime.GOMAXPROCS(0) - 1
	// waitExited waits, up to a deadline, until n functions deferring
	// exited.Add(1) have ended.
	waitExited := func(exited *atomic.Int32, n int32, what string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for exited.Load() != n {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d of %d functions calling Goexit ran in 10 s; want all", what, exited.Load(), n)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	// wantGoexit calls wait and checks that it panics with a *PanicError
	// of call naming runtime.Goexit.
	wantGoexit := func(what, call string, wait func()) {
		t.Helper()
		var got any
		returned := false
		within(t, 10*time.Second, what, func() {
			defer func() { got = recover() }()
			wait()
			returned = true
		})
		pe, ok := got.(*pfor.PanicError)
		if !ok || pe.Call != call || !strings.Contains(fmt.Sprint(pe.Value), "runtime.Goexit") {
			t.Fatalf("%s: returned %v, recovered %#v; want a *PanicError of %q naming runtime.Goexit", what, returned, got, call)
		}
	}
	for range 20 {
		var g pfor.Group
		var exited atomic.Int32
		g.Go(func(*pfor.Worker) error {
			defer exited.Add(1)
			runtime.Goexit()
			return nil
		})
		waitExited(&exited, 1, "Group")
		wantGoexit("Group.Wait after a task called Goexit", "Group task", func() { g.Wait() })
	}
	var exited atomic.Int32
	fu := pfor.Go(func() int {
		defer exited.Add(1)
		runtime.Goexit()
		return 1
	})
	fs := pfor.Spawn(nil, func(*pfor.Worker) int {
		defer exited.Add(1)
		runtime.Goexit()
		return 1
	})
	fe := pfor.SpawnErr(nil, func(*pfor.Worker) (int, error) {
		defer exited.Add(1)
		runtime.Goexit()
		return 1, nil
	})
	waitExited(&exited, 3, "futures")
	for range 2 { // every Get re-raises
		wantGoexit("Future.Wait of Go", "Future", func() { fu.Wait() })
		wantGoexit("Future.Get of Spawn", "Future", func() { fs.Get(nil) })
		wantGoexit("FutureErr.Wait of SpawnErr", "Future", func() { fe.Wait() })
	}
	var ran atomic.Int32
	pfor.Do(func() { ran.Add(1) }, func() { ran.Add(1) })
	if ran.Load() != 2 || pfor.TaskWorkers() < want {
		t.Errorf("after Goexits: Do ran %d of 2, %d workers; want 2 and at least GOMAXPROCS-1 = %d", ran.Load(), pfor.TaskWorkers(), want)
	}
}

// TestPoolFollowsGOMAXPROCS: the task pool has GOMAXPROCS-1 workers once
// an entry point has seen GOMAXPROCS change, up or down (idle workers above
// the target are woken to retire).
func TestPoolFollowsGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{4, 2, 5, 1, 3} {
		runtime.GOMAXPROCS(procs)
		pfor.Run(func(*pfor.Worker) {})
		deadline := time.Now().Add(5 * time.Second)
		for pfor.TaskWorkers() != procs-1 {
			if time.Now().After(deadline) {
				t.Fatalf("GOMAXPROCS=%d: %d task workers after 5 s; want %d", procs, pfor.TaskWorkers(), procs-1)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
}

func TestTaskBadInput(t *testing.T) {
	var w *pfor.Worker
	var g *pfor.Group
	var fu *pfor.Future[int]
	var fe *pfor.FutureErr[int]
	for _, tc := range []struct {
		call, want string
		f          func()
	}{
		{"Join on nil", "pfor: Join: nil *Worker", func() { w.Join(func(*pfor.Worker) {}, func(*pfor.Worker) {}) }},
		{"Both on nil", "pfor: Both: nil *Worker", func() { pfor.Both(w, func(*pfor.Worker, int) int { return 0 }, 1, 2) }},
		{"Join nil a", "pfor: Join: a is nil", func() { pfor.Run(func(w *pfor.Worker) { w.Join(nil, func(*pfor.Worker) {}) }) }},
		{"Join nil b", "pfor: Join: b is nil", func() { pfor.Run(func(w *pfor.Worker) { w.Join(func(*pfor.Worker) {}, nil) }) }},
		{"Both nil f", "pfor: Both: f is nil", func() {
			pfor.Run(func(w *pfor.Worker) { pfor.Both[int, int](w, nil, 1, 2) })
		}},
		{"Run nil", "pfor: Run: f is nil", func() { pfor.Run(nil) }},
		{"NewGroup nil", "pfor: NewGroup(nil)", func() { pfor.NewGroup(nil) }}, //nolint:staticcheck // testing the nil check
		{"Group.Go nil", "pfor: Group.Go: f is nil", func() { new(pfor.Group).Go(nil) }},
		{"Worker.Go nil group", "pfor: Worker.Go: nil *Group", func() {
			pfor.Run(func(w *pfor.Worker) { w.Go(nil, func(*pfor.Worker) error { return nil }) })
		}},
		{"Worker.Wait nil", "pfor: Worker.Wait: nil *Group", func() { pfor.Run(func(w *pfor.Worker) { w.Wait(nil) }) }},
		{"Worker.Go on nil", "pfor: Worker.Go: nil *Worker", func() { w.Go(new(pfor.Group), func(*pfor.Worker) error { return nil }) }},
		{"Worker.Wait on nil", "pfor: Worker.Wait: nil *Worker", func() { w.Wait(new(pfor.Group)) }},
		{"SortStableFunc nil", "pfor: SortStableFunc: cmp is nil", func() { pfor.SortStableFunc([]int{2, 1}, nil) }},
		{"Group.Go on nil", "pfor: Group.Go: nil *Group", func() { g.Go(func(*pfor.Worker) error { return nil }) }},
		{"Group.Wait on nil", "pfor: Group.Wait: nil *Group", func() { g.Wait() }},
		{"Future.Get on nil", "pfor: Future.Get: nil *Future", func() { fu.Get(nil) }},
		{"Future.Wait on nil", "pfor: Future.Wait: nil *Future", func() { fu.Wait() }},
		{"FutureErr.Get on nil", "pfor: FutureErr.Get: nil *FutureErr", func() { fe.Get(nil) }},
		{"FutureErr.Wait on nil", "pfor: FutureErr.Wait: nil *FutureErr", func() { fe.Wait() }},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tc.want) {
					t.Errorf("%s: panic %v; want one containing %q", tc.call, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}
