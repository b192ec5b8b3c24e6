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

// TestGoexitInTask: a task that calls runtime.Goexit ends the goroutine
// running it as if the task had returned: it counts as finished, and a
// pool worker ended this way is replaced. (The goroutine may be the
// waiter's, which takes part in the work: here it is one that may end.)
func TestGoexitInTask(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // a pool worker to run what the waiter does not
	pfor.Run(func(*pfor.Worker) {})                 // start the pool
	want := runtime.GOMAXPROCS(0) - 1
	for range 20 {
		var g pfor.Group
		var exited atomic.Int32
		for range 4 {
			g.Go(func(*pfor.Worker) error {
				defer exited.Add(1)
				runtime.Goexit()
				return nil
			})
		}
		go g.Wait() // a task may end this goroutine
		deadline := time.Now().Add(10 * time.Second)
		for exited.Load() != 4 {
			if time.Now().After(deadline) {
				t.Fatalf("%d of 4 tasks calling Goexit ran in 10 s; want all", exited.Load())
			}
			time.Sleep(100 * time.Microsecond)
		}
		within(t, 10*time.Second, "Wait on a Group whose tasks called Goexit", func() {
			if err := g.Wait(); err != nil {
				t.Errorf("Wait = %v; want nil", err)
			}
		})
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
