package pfor

import "github.com/stealkit/stealkit/internal/sched"

// thePool runs every call of the package: loops and tasks share its
// workers (see internal/sched).
var thePool = pool{sched.NewPool(newWorker, wrapAny)}

// pool is the package's view of a sched.Pool, with Workers of this package.
type pool struct{ *sched.Pool }

// busy reports whether every worker of the pool is running, none of them
// searching for work or asleep (guests waiting in the pool count as
// workers), as of some instant during the call: a task forked then would
// find no thief. One atomic load.
func (p pool) busy() bool {
	searching, sleeping := p.IdleCounts()
	return searching == 0 && sleeping == 0
}

// acquire returns a guest Worker for the calling goroutine.
func (p pool) acquire() *Worker { return workerOf(p.Acquire()) }

// release returns a guest from acquire.
func (p pool) release(w *Worker) { p.Release(&w.s) }

// injectTask queues t, from outside the pool, and wakes a worker.
func (p pool) injectTask(t *sched.Task) { p.Inject(t) }

// Run calls f on the calling goroutine with a Worker handle, so that f can
// fork tasks with Join, Both and Worker.Go that idle pool workers steal, and
// returns when f has returned. Tasks f spawned into a Group with Worker.Go
// may still be running then; wait for them with the Group.
//
// If f panics, Run re-raises the panic as a *PanicError after every task f
// joined has stopped. Run panics if f is nil.
func Run(f func(w *Worker)) {
	checkFunc("Run", "f", f == nil)
	thePool.run("Run", f)
}

// run calls f with a guest Worker of p, as Run describes, for the entry
// point named call.
func (p pool) run(call string, f func(w *Worker)) {
	w := p.acquire()
	defer p.release(w)
	defer rethrow(call)
	f(w)
}

// rethrow, deferred, re-raises a panic as a *PanicError holding the stack
// of the panic site (or as it is, if it already is one).
func rethrow(call string) {
	if r := recover(); r != nil {
		panic(wrapPanic(call, r))
	}
}

// rethrowDo and rethrowJoin are rethrow("Do") and rethrow("Join") for the
// inline paths of Do and Join: deferred with no argument, they need no
// wrapper around them, which would be a second call on every return.
// (recover must be called by the deferred function itself: rethrow
// cannot be called from here.) They touch no memory, and are go:norace as
// Do and Join are, so that the race detector's runtime sees no entry and
// exit of theirs either.
//
//go:norace
func rethrowDo() {
	if r := recover(); r != nil {
		panic(wrapPanic("Do", r))
	}
}

//go:norace
func rethrowJoin() {
	if r := recover(); r != nil {
		panic(wrapPanic("Join", r))
	}
}
