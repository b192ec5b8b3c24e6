package pfor

import "github.com/stealkit/stealkit/internal/sched"

// funcJob is a Join frame's forked function.
type funcJob struct {
	f func(*Worker)
	_ sched.CacheLinePad
}

func (j *funcJob) Exec(w *sched.Worker) { j.f(workerOf(w)) }

// bothJob is a Both frame's forked call, with its argument and its result.
type bothJob[A, R any] struct {
	f   func(*Worker, A) R
	arg A
	res R
	_   sched.CacheLinePad
}

func (j *bothJob[A, R]) Exec(w *sched.Worker) { j.res = j.f(workerOf(w), j.arg) }

// Join calls a and b, in parallel if a worker is free to take one of them,
// and returns when both have returned. b is called first, on the calling
// goroutine; a is called either on another worker, possibly while b runs,
// or after b on the calling goroutine. If another worker took a, Join runs
// other tasks until a has finished instead of blocking.
//
// a and b get the Worker running them: a different one if a was stolen.
// They may run at the same time, so variables they share need the usual
// synchronization; writes made by either happen before Join returns.
//
// Join takes O(1) time besides a and b, takes no lock and allocates
// nothing itself; a closure a that captures variables is allocated by the
// caller, which Both avoids.
//
// If b panics, a is never called if nobody had stolen it, and Join waits
// for it to return if a worker had. If a or b panics, Join panics with the
// panic of b if b panicked, else with a's, once neither runs any more; a
// panic in a task run on another worker is re-raised as a *PanicError.
// A runtime.Goexit on the calling goroutine, in b or in a task Join runs
// while it waits, ends the goroutine as b's panic would end Join: a is
// not called if nobody had stolen it, and the goroutine waits for it to
// return if a worker had. Join panics if w, a or b is nil.
func (w *Worker) Join(a, b func(w *Worker)) {
	if w == nil || a == nil || b == nil {
		panicNil("Join", w == nil, a == nil, b == nil)
	}
	// a waits on w's deque, where an idle worker may steal it; if a was
	// stolen, WaitFrame runs w's own deque's tasks first, then stolen ones.
	// BenchmarkJoin and BenchmarkFib/impl=both measure the fork through Both,
	// impl=join this one with closures.
	f := w.s.Fork()
	j := frameJob[*funcJob](f)
	j.f = a
	w.s.Push(f)
	joined := false // the frame is back or its thief has finished
	defer func() {
		// b panicked, or b or a task PopBack or WaitFrame ran called
		// runtime.Goexit: a must not run after Join has ended, nor be
		// running still, and the frame must be free for reuse.
		if !joined {
			w.s.Abandon(f)
		}
	}()
	b(w)
	if w.s.PopBack(f) {
		joined = true
		j.f = nil
		w.s.Unfork()
		a(w)
		return
	}
	w.s.WaitFrame(f)
	joined = true
	j.f = nil
	w.s.Unfork()
	if p := f.Panic; p != nil {
		f.Panic = nil
		panic(p)
	}
}

// Both returns f(w, x) and f(w, y), computed in parallel if a worker is
// free to take one of them: Join for one function on two arguments (the
// two halves of a divide and conquer), without a closure. f(w, y) is
// called first, on the calling goroutine, and f(w, x) as a is in Join.
// Both takes O(1) time besides f and, with f a top-level function,
// allocates nothing.
//
// f is called concurrently from several goroutines. Panics behave as in
// Join (the call on y is b). Both panics if w or f is nil.
func Both[A, R any](w *Worker, f func(w *Worker, arg A) R, x, y A) (fx, fy R) {
	if w == nil || f == nil {
		panicNil("Both", w == nil, f == nil, false)
	}
	fr := w.s.Fork()
	j := frameJob[*bothJob[A, R]](fr)
	j.f, j.arg = f, x
	w.s.Push(fr)
	joined := false // as in Join
	defer func() {
		if !joined {
			w.s.Abandon(fr)
		}
	}()
	fy = f(w, y)
	if w.s.PopBack(fr) {
		joined = true
		*j = bothJob[A, R]{}
		w.s.Unfork()
		return f(w, x), fy
	}
	w.s.WaitFrame(fr)
	joined = true
	fx = j.res
	*j = bothJob[A, R]{}
	w.s.Unfork()
	if p := fr.Panic; p != nil {
		fr.Panic = nil
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
	sched.Runner
}, E any](f *sched.Task) J {
	if j, ok := f.Job.(J); ok {
		return j
	}
	f.Job, f.Spare = f.Spare, f.Job
	if j, ok := f.Job.(J); ok {
		return j
	}
	j := J(new(E))
	f.Job = j
	return j
}
