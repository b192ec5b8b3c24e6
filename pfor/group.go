package pfor

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/ctxerr"
	"github.com/stealkit/stealkit/internal/sched"
)

// A Group is a set of tasks on the pool that may spawn more tasks into
// the group, from any depth, and a way to wait for all of them.
//
//	g, ctx := pfor.NewGroup(ctx)
//	g.Go(func(w *pfor.Worker) error {
//		w.Go(g, child) // from inside a task: onto this worker's deque
//		return work(ctx)
//	})
//	err := g.Wait()
//
// Tasks are called concurrently from several goroutines, in no particular
// order: a worker runs the tasks it spawned newest first, and idle workers
// steal the oldest. Spawning, running and counting a task takes O(1)
// time and, in steady state, allocates nothing but f's closure. For
// fine-grained fan-out, split recursively with Both or Join, or use Range.
//
// A task gets a *Worker, the handle through which it forks and waits
// cheaply (Worker.Go, Worker.Join, Both, Worker.Wait); a task that does
// not need it ignores it. Tasks are for computation: see Worker on tasks
// that block.
//
// Errors and cancellation: once a task returns an error or the context is
// done, tasks that have not started are skipped (running ones finish; they
// see the failure through the context NewGroup returns, by checking
// ctx.Err() between steps: a task that blocks on ctx.Done() until a sibling
// fails may wait forever, as the sibling may be waiting for the worker the
// blocked task holds). Wait returns the
// first error a task returned (first in time), else the context's error if
// a task was skipped for it, else nil.
//
// Panics: a panic in a task also skips the tasks not yet started; once
// every task has finished, Wait re-raises it as a *PanicError with the
// stack of the panic site and Call "Group task". A panic beats an error.
//
// runtime.Goexit in a task (t.FailNow calls it) ends the goroutine
// running it, which may be the one that called Wait, since it takes part
// in the work: that Wait never returns. The task did not return, so it
// fails the Group as a panic does: every other Wait re-raises a
// *PanicError with Call "Group task" whose Value says that Goexit was
// called. A pool worker ended this way is replaced.
//
// A zero Group is valid and has no context. A Group may be reused after
// Wait returns; an error or a panic stays with it, and later tasks are
// skipped.
type Group struct {
	// Tasks are recycled by the pool, so spawning one allocates only in
	// the first calls (BenchmarkGroup).
	pending atomic.Int64 // root tasks not complete (see groupTask)
	stop    atomic.Bool  // set on the first error, panic or cancellation
	halt    <-chan struct{}
	ctx     context.Context
	cancel  context.CancelCauseFunc // of the context NewGroup returned, or nil
	name    string                  // the call its tasks belong to, for *PanicError: "" for "Group task"

	mu       sync.Mutex
	err      error
	panic    *PanicError
	canceled error           // the context's error, once a task was skipped for it
	waiters  []*sched.Parker // goroutines in Wait that may sleep
	nwait    atomic.Int32    // len(waiters)
}

// NewGroup returns a Group whose tasks are skipped once ctx is done, and a
// context derived from ctx: it is canceled the first time a task returns
// an error or panics, with that error (or the *PanicError) as its cause
// (see context.Cause), or the first time Wait returns, whichever comes
// first. Tasks check it (ctx.Err()) between steps to stop early when a
// sibling fails; they must not block on ctx.Done() waiting for one (see
// Group). NewGroup panics if ctx is nil.
func NewGroup(ctx context.Context) (*Group, context.Context) {
	// The context is returned rather than offered by a method so that the
	// zero Group stays valid and the context is where a reader of the call
	// expects it.
	if ctx == nil {
		panic("pfor: NewGroup(nil): use context.Background()")
	}
	derived, cancel := context.WithCancelCause(ctx)
	return &Group{ctx: ctx, halt: ctx.Done(), cancel: cancel}, derived
}

// Go spawns f as a task of g and returns at once. It can be called from
// any goroutine and needs no Worker: f is started by the first idle worker
// (with GOMAXPROCS 1 the pool has no worker goroutine: by the goroutine
// that calls Wait), and called on that worker's goroutine. Inside a task,
// w.Go(g, f) is cheaper. Go takes O(1) time. Go panics if g or f is nil.
func (g *Group) Go(f func(w *Worker) error) {
	// From outside the pool the task goes to the pool's injection queue;
	// w.Go pushes onto the worker's own deque instead.
	if g == nil {
		panic("pfor: Group.Go: nil *Group (a zero Group is ready to use)")
	}
	checkFunc("Group.Go", "f", f == nil)
	if g.skip() {
		return
	}
	t := (*Worker)(nil).newGroupTask(g)
	t.f = f
	thePool.injectTask(&t.Task)
}

// Wait runs tasks, and sleeps when it finds none, until every task of g has
// finished, then returns as described on Group: the first error, the
// context's, or nil; or it re-raises a panic. The calling goroutine takes
// part as a guest worker, so Wait may also run tasks of other groups,
// which can delay its return by as long as one such task runs. Inside a
// task, w.Wait(g) is cheaper.
//
// A task of g must not wait for g, which would wait for the task itself:
// Wait panics if called from a task of g (one running innermost on the
// calling goroutine) that a pool worker or the goroutine's own Group.Wait
// is running, as Worker.Wait does; a task of g that a Run, Join, Do or
// Future.Wait took from another goroutine's deque is not detected, and
// waits forever. Checking makes Wait, while g has tasks left, cost far more
// than w.Wait(g): a task that waits should use w.Wait(g). Wait panics if g
// is nil.
func (g *Group) Wait() error {
	// To tell whether the caller runs a task of g, Wait reads the calling
	// goroutine's id when g has tasks left, which takes a traceback of the
	// goroutine (runtime.Stack; BenchmarkGroupWait against
	// BenchmarkFuture/spawn=outside).
	if g == nil {
		panic("pfor: Group.Wait: nil *Group (a zero Group is ready to use)")
	}
	defer g.done()
	w := thePool.acquire()
	defer thePool.release(w)
	if g.pending.Load() != 0 {
		id := sched.GoID()
		defer w.s.GID.Store(0) // the guest may go to another goroutine next
		w.s.GID.Store(id)
		if waitsForItself(id, g) {
			panic("pfor: Group.Wait: called from a task of the Group, which would wait for itself")
		}
	}
	return w.Wait(g)
}

// help is Group.Wait with neither the check for a task waiting for its own
// Group nor the context's cancellation: Future.Wait's, which must stay
// cheap for fine-grained futures.
func (g *Group) help() error {
	w := thePool.acquire()
	defer thePool.release(w)
	return w.Wait(g)
}

// done cancels the context NewGroup returned once Wait returns.
func (g *Group) done() {
	if g.cancel != nil {
		g.cancel(nil)
	}
}

// Go spawns f as a task of g onto w's deque: w's worker runs it when it is
// next idle, unless another worker steals it first. It panics if w, g or f
// is nil.
func (w *Worker) Go(g *Group, f func(w *Worker) error) {
	if w == nil {
		panic("pfor: Worker.Go: nil *Worker (outside a task, use Group.Go)")
	}
	if g == nil {
		panic("pfor: Worker.Go: nil *Group")
	}
	checkFunc("Worker.Go", "f", f == nil)
	if g.skip() {
		return
	}
	t := w.newGroupTask(g)
	t.f = f
	w.s.Push(&t.Task)
}

// Wait runs tasks, its own deque's first, until every task of g has
// finished, and returns as Group.Wait does. It is how a task waits for the
// tasks it spawned without blocking its worker: give them a Group of their
// own, as a task of g waiting for g would wait for itself. Wait panics if
// w or g is nil or if called from a task of g.
func (w *Worker) Wait(g *Group) error {
	if w == nil {
		panic("pfor: Worker.Wait: nil *Worker (outside a task, use Group.Wait)")
	}
	if g == nil {
		panic("pfor: Worker.Wait: nil *Group")
	}
	if w.cur != nil && w.cur.g == g {
		panic("pfor: Worker.Wait: a task cannot wait for its own Group")
	}
	if g.pending.Load() != 0 {
		// Listed as a waiter only once it may sleep: most waits end first.
		listed := false
		w.s.HelpUntil(func() bool { return g.pending.Load() == 0 }, func() {
			if !listed {
				listed = true
				g.addWaiter(w.s.Park())
			}
		})
		if listed {
			g.removeWaiter(w.s.Park())
		}
	}
	if !g.stop.Load() { // every error, panic or cancellation stops g before its last task completes
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.panic != nil {
		panic(g.panic)
	}
	if g.err != nil {
		return g.err
	}
	return g.canceled
}

// skip reports whether g has stopped, recording the context's error if
// that is why.
func (g *Group) skip() bool {
	if g.halt != nil && !g.stop.Load() {
		select {
		case <-g.halt:
			g.mu.Lock()
			if g.canceled == nil {
				g.canceled = ctxerr.Of(g.ctx)
			}
			g.mu.Unlock()
			g.stop.Store(true)
		default:
		}
	}
	return g.stop.Load()
}

// fail records the first error or panic, stops g and cancels its context.
func (g *Group) fail(err error, p *PanicError) {
	g.stop.Store(true)
	g.mu.Lock()
	if p != nil && g.panic == nil {
		g.panic = p
	}
	if err != nil && g.err == nil {
		g.err = err
	}
	g.mu.Unlock()
	if g.cancel != nil {
		if p != nil {
			err = p
		}
		g.cancel(err) // only the first cause counts
	}
}

// call names the entry point g's tasks belong to, for *PanicError.
func (g *Group) call() string {
	if g.name == "" {
		return "Group task"
	}
	return g.name
}

// finish records that a task has finished, waking waiters after the last.
func (g *Group) finish() {
	if g.pending.Add(-1) == 0 && g.nwait.Load() != 0 {
		g.mu.Lock()
		for _, p := range g.waiters {
			p.Unpark()
		}
		g.mu.Unlock()
	}
}

func (g *Group) addWaiter(p *sched.Parker) {
	g.mu.Lock()
	g.waiters = append(g.waiters, p)
	g.nwait.Add(1) // before the waiter's last look at pending: see sched.Idle
	g.mu.Unlock()
}

func (g *Group) removeWaiter(p *sched.Parker) {
	g.mu.Lock()
	for i, q := range g.waiters {
		if q == p {
			g.waiters = append(g.waiters[:i], g.waiters[i+1:]...)
			break
		}
	}
	g.nwait.Add(-1)
	g.mu.Unlock()
}
