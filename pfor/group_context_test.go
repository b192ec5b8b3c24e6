package pfor_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// TestNewGroupContextCanceledOnError: the context NewGroup returns is
// canceled when a task returns an error, with that error as its cause, and
// a task already running sees it.
func TestNewGroupContextCanceledOnError(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	errBad := errors.New("bad")
	g, ctx := pfor.NewGroup(context.Background())
	if ctx.Err() != nil {
		t.Fatalf("NewGroup: context done before any task failed: %v", ctx.Err())
	}
	running := make(chan struct{})
	sawCancel := make(chan bool, 1)
	g.Go(func(*pfor.Worker) error { // runs while its sibling fails
		close(running)
		select {
		case <-ctx.Done():
			sawCancel <- true
		case <-time.After(10 * time.Second):
			sawCancel <- false
		}
		return nil
	})
	<-running // the watcher holds a worker; the caller's Wait runs the failing task
	g.Go(func(*pfor.Worker) error { return errBad })
	if err := g.Wait(); err != errBad {
		t.Errorf("Wait() = %v; want %v", err, errBad)
	}
	if !<-sawCancel {
		t.Errorf("a running task did not see the context canceled when its sibling failed")
	}
	if cause := context.Cause(ctx); cause != errBad {
		t.Errorf("context.Cause = %v; want the task's error %v", cause, errBad)
	}
}

// TestNewGroupContextCanceledOnPanic: a panic cancels the context with the
// *PanicError as its cause.
func TestNewGroupContextCanceledOnPanic(t *testing.T) {
	g, ctx := pfor.NewGroup(context.Background())
	g.Go(func(*pfor.Worker) error { panic("task") })
	pe, _ := recoverPanic(func() { g.Wait() })
	var cause *pfor.PanicError
	if !errors.As(context.Cause(ctx), &cause) || cause != pe || pe.Call != "Group task" {
		t.Errorf("after a panicking task: context.Cause = %v, Wait panicked with %#v; want the same *PanicError, Call \"Group task\"", context.Cause(ctx), pe)
	}
}

// TestNewGroupContextCanceledByWait: with no failure, the context stays
// live while tasks run and is canceled once Wait returns.
func TestNewGroupContextCanceledByWait(t *testing.T) {
	g, ctx := pfor.NewGroup(context.Background())
	var during error
	g.Go(func(*pfor.Worker) error { during = ctx.Err(); return nil })
	if err := g.Wait(); err != nil || during != nil {
		t.Fatalf("Wait() = %v, ctx.Err() in the task = %v; want nil, nil", err, during)
	}
	if ctx.Err() != context.Canceled {
		t.Errorf("after Wait: ctx.Err() = %v; want context.Canceled", ctx.Err())
	}
}

// TestGroupWaitFromOwnTask: Group.Wait called from a task of the Group,
// directly or from a function that task gave to Join, panics with a
// message instead of waiting for itself forever, at any GOMAXPROCS: on the
// guest of the outer Wait (at GOMAXPROCS 1 always) or on a pool worker
// (forced by waiting only once the task has started). Waiting for another
// Group from a task is fine.
func TestGroupWaitFromOwnTask(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		for _, how := range []string{"task", "join", "worker"} {
			if how == "worker" && procs == 1 {
				continue // no pool worker: only a waiter runs tasks
			}
			done := make(chan any, 1)
			go func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				defer func() { done <- recover() }()
				var g pfor.Group
				switch how {
				case "task":
					g.Go(func(*pfor.Worker) error { return g.Wait() })
				case "worker": // a pool worker runs the task: nobody waits yet
					started := make(chan struct{})
					g.Go(func(*pfor.Worker) error { close(started); return g.Wait() })
					<-started
				default:
					g.Go(func(w *pfor.Worker) error {
						var err error
						w.Join(func(*pfor.Worker) {}, func(*pfor.Worker) { err = g.Wait() })
						return err
					})
				}
				g.Wait()
			}()
			select {
			case r := <-done:
				pe, _ := r.(*pfor.PanicError)
				if pe == nil || !strings.Contains(fmt.Sprint(pe.Value), "pfor: Group.Wait: called from a task of the Group") {
					t.Errorf("GOMAXPROCS %d, g.Wait() from a %s of g: recovered %v; want a *PanicError saying it was called from a task of the Group", procs, how, r)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("GOMAXPROCS %d, g.Wait() from a %s of g: deadlocked", procs, how)
			}
		}
		func() { // at GOMAXPROCS 1 only the waiters run tasks: Wait helps
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			var outer, inner pfor.Group
			outer.Go(func(*pfor.Worker) error {
				inner.Go(func(*pfor.Worker) error { return nil })
				return inner.Wait()
			})
			if err := outer.Wait(); err != nil {
				t.Errorf("GOMAXPROCS %d: a task waiting for another Group: %v; want nil", procs, err)
			}
		}()
	}
}
