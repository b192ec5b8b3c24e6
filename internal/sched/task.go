package sched

import (
	"sync/atomic"
	"unsafe"
)

// A Task is what the deques and the injection queue hold: a Join frame
// (from Fork) or a task of the caller's own (owner == nil), such as
// pfor's Group tasks, which embed a Task.
//
// Frames are how Join and Both fork without allocating: each Worker keeps a
// stack of them, one per nesting depth of its joins, and a Join takes the
// frame at its depth, pushes it, and is done with it before it returns
// (joins nest strictly on a goroutine). A frame is reused for the next join
// at that depth; seq tells the uses apart. Fields are written by the owner
// before the push that publishes the frame and read by the thief after the
// steal that takes it; the thief's results are published by its store of
// done, which the owner waits for before reusing the frame.
type Task struct {
	Job   Runner        // the work: Exec runs it on the worker that takes the task
	Spare Runner        // frames: the job of the previous other type, for reuse by the owner
	owner *Worker       // frames: the worker whose stack the frame belongs to; nil for other tasks
	seq   uint64        // frames: the current use, counted by the owner
	done  atomic.Uint64 // frames: the last use that has finished (stored by the thief)
	Panic any           // frames: a thief's panic, as the pool's wrap made it, for the owner to re-raise
}

// A Runner is the work a task does: Exec runs it on w, the worker that
// took the task.
type Runner interface{ Exec(w *Worker) }

// CacheLinePad follows the fields of objects that one worker writes on
// every fork, so that no two of them share a cache line whatever the
// allocator puts next to them. Without it, each fork of fib on two workers
// paid for cache misses on lines the other worker was writing.
type CacheLinePad [64]byte

// A frame is a task padded to two cache lines (see CacheLinePad): the
// fields of Task fit in the first 64 bytes, and the padding brings the
// whole to 128 bytes, a size class whose objects start on a cache line, so
// that the fields never straddle two lines.
type frame struct {
	Task
	_ [2*unsafe.Sizeof(CacheLinePad{}) - unsafe.Sizeof(Task{})]byte
}

// Fork returns w's frame for a join at the current depth, for a new use:
// the caller sets its Job, pushes it, and ends the use with Unfork once
// it took the frame back (PopBack) or its thief finished it (WaitFrame),
// or with Abandon. Joins nest strictly on a goroutine.
func (w *Worker) Fork() *Task {
	if w.depth == len(w.frames) {
		f := &frame{Task: Task{owner: w}}
		w.frames = append(w.frames, &f.Task)
	}
	f := w.frames[w.depth]
	w.depth++
	f.seq++
	return f
}

// Unfork ends the use of the frame at the current depth.
func (w *Worker) Unfork() { w.depth-- }

// PopBack pops w's deque down to the frame f and reports whether f was
// still there. Tasks above f are tasks the joined function spawned;
// PopBack runs them. If f was stolen, so was everything older than it, and
// the pops end with the deque empty.
func (w *Worker) PopBack(f *Task) bool {
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

// WaitFrame runs other tasks until the thief of f has finished it.
func (w *Worker) WaitFrame(f *Task) {
	seq := f.seq
	w.HelpUntil(func() bool { return f.done.Load() == seq }, nil)
}

// Abandon ends a join whose inline half panicked: it takes the frame back,
// or waits for its thief, and drops a panic of the thief's (the inline
// half's panic is the one on its way up).
func (w *Worker) Abandon(f *Task) {
	if !w.PopBack(f) {
		w.WaitFrame(f)
	}
	f.Panic = nil
	w.depth--
}

// runFrame runs a stolen frame and tells its owner: done is the last
// access to f, as the owner may reuse the frame as soon as it sees it.
// A function that ends the thief's goroutine with runtime.Goexit did not
// return: the owner re-raises GoexitInFork, as it would a panic.
func (w *Worker) runFrame(f *Task) {
	seq := f.seq
	exited := true // until Exec returns: a Goexit leaves it set
	defer func() {
		r := recover()
		if r == nil && exited {
			r = GoexitInFork
		}
		if r != nil {
			f.Panic = w.pool.wrap("", r) // named by the entry point that re-raises it
		}
		owner := f.owner // never changes: safe to read after done
		f.done.Store(seq)
		owner.park.Unpark()
	}()
	f.Job.Exec(w)
	exited = false
}

// GoexitInFork is the panic value of a join whose forked function, run by
// another worker, called runtime.Goexit.
const GoexitInFork = "runtime.Goexit called in a forked function on a pool worker: it did not return"
