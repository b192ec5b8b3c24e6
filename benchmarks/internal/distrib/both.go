package distrib

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/deque"
	"github.com/stealkit/stealkit/internal/sched"
	"github.com/stealkit/stealkit/pfor"
)

// A Worker is a task's handle on its Pool: the goroutine running the task,
// with its queue. As with a pfor.Worker, it must be used only by the
// function it was passed to, on that function's goroutine, and only until
// it returns.
type Worker struct {
	pool  *Pool
	dq    *deque.Deque[task] // Stealing
	q     *lockedQueue       // Dealing and Balancing
	park  *sched.Parker
	rng   uint64 // xorshift state for choosing victims
	guest bool
	next  int // Dealing: where the round robin starts next

	// Frames for Both, reused by depth: frames[depth] is the next one.
	frames []*task
	depth  int

	// Counters, written by the owner, read by Stats at any time.
	spawned  atomic.Int64
	ran      atomic.Int64
	migrated atomic.Int64
	moved    atomic.Int64
	idle     atomic.Int64 // packed: see idleStart

	_ [64]byte // the owner writes depth and the counters all the time
}

// A task is a Both frame: the forked half of a Both. Each Worker keeps a
// stack of them, one per nesting depth, and a Both takes the frame at its
// depth, queues it, and is done with it before it returns. seq tells a
// frame's uses apart. Fields are written by the owner before the push that
// publishes the frame and read by the worker that takes it; that worker's
// results are published by its store of done, which the owner waits for.
type task struct {
	job   runner
	spare runner // the job of the previous other type, for reuse (see frameJob)
	owner *Worker
	seq   uint64
	done  atomic.Uint64    // the last use that has finished (stored by the thief)
	panic *pfor.PanicError // a thief's panic, for the owner to re-raise

	queue atomic.Pointer[lockedQueue] // Dealing, Balancing: the queue holding the task, or nil
	_     [64]byte                    // the owner writes a frame on every fork; a thief, its results
}

type runner interface{ exec(w *Worker) }

// bothJob is a frame's forked call, with its argument and its result.
type bothJob[A, R any] struct {
	f   func(*Worker, A) R
	arg A
	res R
	_   [64]byte // written by the thief, beside a frame the owner writes
}

func (j *bothJob[A, R]) exec(w *Worker) { j.res = j.f(w, j.arg) }

// Both returns f(w, x) and f(w, y), as pfor.Both does: f(w, y) runs on the
// calling goroutine at once; f(w, x) is queued under the pool's policy,
// where another worker may take it, and runs on the calling goroutine
// after f(w, y) if nobody did. If it was taken, Both runs other tasks
// until it has finished. If either call panics, Both panics once neither
// runs any more, with f(w, y)'s panic if it panicked, else with f(w, x)'s
// as a *pfor.PanicError. Both panics if w or f is nil.
func Both[A, R any](w *Worker, f func(w *Worker, arg A) R, x, y A) (fx, fy R) {
	if w == nil || f == nil {
		panic("distrib: Both: nil *Worker or f")
	}
	fr := w.fork()
	j := frameJob[*bothJob[A, R]](fr)
	j.f, j.arg = f, x
	w.push(fr)
	joined := false
	defer func() {
		if !joined { // f(w, y) panicked: f(w, x) must stop before the frame is reused
			if !w.popBack(fr) {
				w.waitFrame(fr)
			}
			fr.panic = nil
			w.depth--
		}
	}()
	fy = f(w, y)
	joined = true
	if w.popBack(fr) {
		*j = bothJob[A, R]{}
		w.depth--
		return f(w, x), fy
	}
	w.waitFrame(fr)
	fx = j.res
	*j = bothJob[A, R]{}
	w.depth--
	if p := fr.panic; p != nil {
		fr.panic = nil
		panic(p)
	}
	return fx, fy
}

// frameJob returns frame f's job of type J, reusing the current or the
// spare one if either has that type, else a new one.
func frameJob[J interface {
	*E
	runner
}, E any](f *task) J {
	if j, ok := f.job.(J); ok {
		return j
	}
	f.job, f.spare = f.spare, f.job
	if j, ok := f.job.(J); ok {
		return j
	}
	j := J(new(E))
	f.job = j
	return j
}

// fork returns w's frame for a Both at the current depth, for a new use.
func (w *Worker) fork() *task {
	if w.depth == len(w.frames) {
		w.frames = append(w.frames, &task{owner: w})
	}
	f := w.frames[w.depth]
	w.depth++
	f.seq++
	return f
}

// waitFrame runs other tasks until the worker that took f has finished it.
func (w *Worker) waitFrame(f *task) {
	seq := f.seq
	done := func() bool { return f.done.Load() == seq }
	for !done() {
		t := w.pop()
		if t == nil {
			if t = w.search(done); t == nil {
				return
			}
		}
		w.execute(t)
	}
}

// execute runs t, a frame another Both queued, and tells its owner: done
// is the last access to t, as the owner may reuse the frame as soon as it
// sees it.
func (w *Worker) execute(t *task) {
	seq := t.seq
	defer func() {
		if r := recover(); r != nil {
			t.panic = asPanicError(r)
		}
		owner := t.owner // never changes: safe to read after done
		t.done.Store(seq)
		owner.park.Unpark()
	}()
	t.job.exec(w)
}

// rethrow, deferred, re-raises a panic as a *pfor.PanicError.
func rethrow() {
	if r := recover(); r != nil {
		panic(asPanicError(r))
	}
}

// asPanicError wraps a recovered value with the current stack, which, in
// the deferred function that recovered, still shows the panic site.
func asPanicError(r any) *pfor.PanicError {
	if pe, ok := r.(*pfor.PanicError); ok {
		return pe
	}
	return &pfor.PanicError{Value: r, Stack: debug.Stack()}
}
