package pfor

import (
	"sync/atomic"
	"unsafe"
)

// A task is what the deques and the injection queue hold: a Join frame or
// a Group task (a groupTask, whose embedded task has owner == nil).
//
// Frames are how Join and Both fork without allocating: each Worker keeps a
// stack of them, one per nesting depth of its joins, and a Join takes the
// frame at its depth, pushes it, and is done with it before it returns
// (joins nest strictly on a goroutine). A frame is reused for the next join
// at that depth; seq tells the uses apart. Fields are written by the owner
// before the push that publishes the frame and read by the thief after the
// steal that takes it; the thief's results are published by its store of
// done, which the owner waits for before reusing the frame.
type task struct {
	job   runner
	spare runner        // frames: the job of the previous other type, for reuse (see frameJob)
	owner *Worker       // frames: the worker whose stack the frame belongs to; nil for Group tasks
	seq   uint64        // frames: the current use, counted by the owner
	done  atomic.Uint64 // frames: the last use that has finished (stored by the thief)
	panic *PanicError   // frames: a thief's panic, for the owner to re-raise
}

// A runner is the work a task does.
type runner interface{ exec(w *Worker) }

// cacheLinePad follows the fields of objects that one worker writes on
// every fork, so that no two of them share a cache line whatever the
// allocator puts next to them. Measured: without it, fib on two workers
// used twice the CPU of fib on one, each fork paying for cache misses on
// lines the other worker was writing.
type cacheLinePad [64]byte

// funcJob is a Join frame's forked function.
type funcJob struct {
	f func(*Worker)
	_ cacheLinePad
}

func (j *funcJob) exec(w *Worker) { j.f(w) }

// bothJob is a Both frame's forked call, with its argument and its result.
type bothJob[A, R any] struct {
	f   func(*Worker, A) R
	arg A
	res R
	_   cacheLinePad
}

func (j *bothJob[A, R]) exec(w *Worker) { j.res = j.f(w, j.arg) }

// Join calls a and b, in parallel if a worker is free to take one of them,
// and returns when both have returned: the fork-join of Cilk's spawn and
// sync, and of rayon::join. b runs on the calling goroutine at once; a
// waits on w's deque, where an idle worker may steal it, and runs on the
// calling goroutine after b if nobody did. If a was stolen, Join runs other
// tasks (its own deque's first, then stolen ones) until a has finished.
//
// a and b get the Worker running them: a different one if a was stolen.
// They may run at the same time, so variables they share need the usual
// synchronization; writes made by either happen before Join returns.
//
// Costs: two atomic stores to fork and one to take a back, 30 to 60 ns per
// fork and join on this project's (shared, noisy) 2-core machine when
// nothing is stolen (BenchmarkJoin -cpu 1, which uses Both, as does
// BenchmarkFib/impl=both; impl=join shows Join with closures). Join itself
// allocates nothing,
// but a closure a that captures variables is allocated by the caller: Both
// avoids that.
//
// If a or b panics, Join panics with the panic of b if b panicked, else
// with a's, once neither runs any more; a panic in a task run on another
// worker is re-raised as a *PanicError. Join panics if w, a or b is nil.
func (w *Worker) Join(a, b func(w *Worker)) {
	if w == nil || a == nil || b == nil {
		panicNil("Join", w == nil, a == nil, b == nil)
	}
	f := w.fork()
	j := frameJob[*funcJob](f)
	j.f = a
	w.push(f)
	joined := false
	defer func() {
		if !joined { // b panicked: a must stop before the frame is reused
			w.abandon(f)
		}
	}()
	b(w)
	joined = true
	if w.popBack(f) {
		j.f = nil
		w.depth--
		a(w)
		return
	}
	w.waitFrame(f)
	j.f = nil
	w.depth--
	if p := f.panic; p != nil {
		f.panic = nil
		panic(p)
	}
}

// Both returns f(w, x) and f(w, y), computed in parallel if a worker is
// free to take one of them: Join for the common case of one function on
// two arguments (the two halves of a divide and conquer), without a
// closure. f(w, y) runs on the calling goroutine at once; f(w, x) waits on
// w's deque to be stolen, as a does in Join. With f a top-level function,
// Both allocates nothing.
//
// f is called concurrently from several goroutines. Panics behave as in
// Join (the call on y is b). Both panics if w or f is nil.
func Both[A, R any](w *Worker, f func(w *Worker, arg A) R, x, y A) (fx, fy R) {
	if w == nil || f == nil {
		panicNil("Both", w == nil, f == nil, false)
	}
	fr := w.fork()
	j := frameJob[*bothJob[A, R]](fr)
	j.f, j.arg = f, x
	w.push(fr)
	joined := false
	defer func() {
		if !joined {
			w.abandon(fr)
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

func panicNil(call string, w, a, b bool) {
	switch {
	case w:
		panic("pfor: " + call + ": nil *Worker (enter the pool with Run)")
	case a && call == "Both":
		panic("pfor: Both: f is nil")
	case a:
		panic("pfor: Join: a is nil")
	default:
		panic("pfor: Join: b is nil")
	}
}

// frameJob returns frame f's job of type J, reusing the current or the
// spare one if either has that type (a frame often alternates between two,
// as a merge sort's frames do between sorting and merging), else a new one.
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

// A frame is a task padded to two cache lines (see cacheLinePad): the
// fields of task fit in the first 64 bytes, and the padding brings the
// whole to 128 bytes, a size class whose objects start on a cache line, so
// that the fields never straddle two lines.
type frame struct {
	task
	_ [2*unsafe.Sizeof(cacheLinePad{}) - unsafe.Sizeof(task{})]byte
}

// fork returns w's frame for a join at the current depth, for a new use.
func (w *Worker) fork() *task {
	if w.depth == len(w.frames) {
		f := &frame{task: task{owner: w}}
		w.frames = append(w.frames, &f.task)
	}
	f := w.frames[w.depth]
	w.depth++
	f.seq++
	return f
}

// popBack pops w's deque down to the frame f and reports whether f was
// still there. Tasks above f are Group tasks the joined function spawned;
// popBack runs them. If f was stolen, so was everything older than it, and
// the pops end with the deque empty.
func (w *Worker) popBack(f *task) bool {
	for {
		t := w.dq.Pop()
		if t == f {
			return true
		}
		if t == nil {
			return false
		}
		w.execute(t)
	}
}

// waitFrame runs other tasks until the thief of f has finished it.
func (w *Worker) waitFrame(f *task) {
	seq := f.seq
	w.helpUntil(func() bool { return f.done.Load() == seq }, nil)
}

// abandon ends a join whose inline half panicked: it takes the frame back,
// or waits for its thief, and drops a panic of the thief's (the inline
// half's panic is the one on its way up).
func (w *Worker) abandon(f *task) {
	if !w.popBack(f) {
		w.waitFrame(f)
	}
	f.panic = nil
	w.depth--
}

// runFrame runs a stolen frame and tells its owner: done is the last
// access to f, as the owner may reuse the frame as soon as it sees it.
func (w *Worker) runFrame(f *task) {
	seq := f.seq
	defer func() {
		if r := recover(); r != nil {
			f.panic = wrapPanic("", r) // named by the entry point that re-raises it
		}
		owner := f.owner // never changes: safe to read after done
		f.done.Store(seq)
		owner.park.Unpark()
	}()
	f.job.exec(w)
}
