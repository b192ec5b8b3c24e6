package pfor

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/sched"
)

// A Group is a set of tasks on the task pool that may spawn more tasks into
// the group, from any depth, and a way to wait for all of them: errgroup's
// shape on work-stealing deques.
//
//	g := pfor.NewGroup(ctx)
//	g.Go(func(w *pfor.Worker) error {
//		w.Go(g, child) // from inside a task: onto this worker's deque
//		return nil
//	})
//	err := g.Wait()
//
// Tasks are called concurrently from several goroutines, in no particular
// order: a worker runs the tasks it spawned newest first, and idle workers
// steal the oldest. A task costs 70 to 450 ns to spawn, run and count on
// this project's 2-core machine (BenchmarkGroup), plus what its closure
// costs to allocate: the high end when a thief takes empty tasks one by one
// from a worker that spawned a thousand of them in a loop. For fine-grained
// fan-out, split recursively with Both or Join, or use Range.
//
// Errors and cancellation: once a task returns an error or the context is
// done, tasks that have not started are skipped (running ones finish). Wait
// returns the first error a task returned (first in time), else the
// context's error if a task was skipped for it, else nil.
//
// Panics: a panic in a task also skips the tasks not yet started; once
// every task has finished, Wait re-raises it as a *PanicError with the
// stack of the panic site. A panic beats an error.
//
// runtime.Goexit in a task ends the goroutine running it, which may be
// the one that called Wait, since it takes part in the work; the task
// counts as finished.
//
// A zero Group is valid and has no context. A Group may be reused after
// Wait returns; an error or a panic stays with it, and later tasks are
// skipped.
type Group struct {
	pending atomic.Int64 // root tasks not complete (see groupTask)
	stop    atomic.Bool  // set on the first error, panic or cancellation
	halt    <-chan struct{}
	ctx     context.Context

	mu       sync.Mutex
	err      error
	panic    *PanicError
	canceled error           // the context's error, once a task was skipped for it
	waiters  []*sched.Parker // goroutines in Wait that may sleep
	nwait    atomic.Int32    // len(waiters)
}

// NewGroup returns a Group whose tasks are skipped once ctx is done. It
// panics if ctx is nil.
func NewGroup(ctx context.Context) *Group {
	if ctx == nil {
		panic("pfor: NewGroup(nil): use context.Background()")
	}
	return &Group{ctx: ctx, halt: ctx.Done()}
}

// Go spawns f as a task of g. It can be called from any goroutine; from
// outside the pool the task goes to the pool's injection queue, and is
// started by the first idle worker (with GOMAXPROCS 1 the pool has no
// worker goroutine: by the goroutine that calls Wait). Inside a task,
// w.Go(g, f) is cheaper: it pushes onto the worker's own deque. Go panics
// if f is nil.
func (g *Group) Go(f func(w *Worker) error) {
	checkFunc("Group.Go", "f", f == nil)
	if g.skip() {
		return
	}
	t := (*Worker)(nil).newGroupTask(g)
	t.f = f
	taskSched.injectTask(&t.task)
}

// Wait runs tasks, and sleeps when it finds none, until every task of g has
// finished, then returns as described on Group: the first error, the
// context's, or nil; or it re-raises a panic. The calling goroutine takes
// part as a guest worker, so Wait may also run tasks of other groups,
// which can delay its return by as long as one such task runs. Inside a
// task, use w.Wait(g); a task of g must not wait for g, which would wait
// for the task itself.
func (g *Group) Wait() error {
	w := taskSched.acquire()
	defer taskSched.release(w)
	return w.Wait(g)
}

// Go spawns f as a task of g onto w's deque: w's worker runs it when it is
// next idle, unless another worker steals it first. It panics if g or f is
// nil.
func (w *Worker) Go(g *Group, f func(w *Worker) error) {
	if g == nil {
		panic("pfor: Worker.Go: nil *Group")
	}
	checkFunc("Worker.Go", "f", f == nil)
	if g.skip() {
		return
	}
	t := w.newGroupTask(g)
	t.f = f
	w.push(&t.task)
}

// Wait runs tasks, its own deque's first, until every task of g has
// finished, and returns as Group.Wait does. It is how a task waits for the
// tasks it spawned without blocking its worker: give them a Group of their
// own, as a task of g waiting for g would wait for itself. Wait panics if
// g is nil or if called from a task of g.
func (w *Worker) Wait(g *Group) error {
	if g == nil {
		panic("pfor: Worker.Wait: nil *Group")
	}
	if w.cur != nil && w.cur.g == g {
		panic("pfor: Worker.Wait: a task cannot wait for its own Group")
	}
	if g.pending.Load() != 0 {
		g.addWaiter(w.park)
		w.helpUntil(func() bool { return g.pending.Load() == 0 })
		g.removeWaiter(w.park)
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
				g.canceled = g.ctx.Err()
			}
			g.mu.Unlock()
			g.stop.Store(true)
		default:
		}
	}
	return g.stop.Load()
}

// fail records the first error or panic and stops g.
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
