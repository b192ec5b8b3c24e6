package pfor

// Join calls a and b, in parallel if a worker of the pool is free to
// take a, and returns when both have returned. It may be called from any
// goroutine: outside the pool, in a loop body, in a function given to Do,
// in a task. b is called first, on the calling goroutine; a is called
// either on another worker, possibly while b runs, or after b on the
// calling goroutine. While a runs elsewhere, the caller runs other tasks
// of the pool instead of blocking.
//
// a and b may run one after the other on the calling goroutine, so they
// must not wait for each other (on a channel, a lock, a WaitGroup): that
// would deadlock whenever no worker is free, at GOMAXPROCS 1 always. Use
// goroutines for functions that must run at the same time. They may run at
// the same time too, so variables they share need the usual
// synchronization; writes made by either happen before Join returns.
//
// Join takes O(1) time besides a and b and allocates nothing itself;
// closures a and b that capture variables are allocated by the caller.
// Inside a task, w.Join and Both do the same for less.
//
// If b panics, a is never called if nobody had taken it, and Join waits
// for it to return if a worker had. If a or b panics, Join panics with b's
// panic if b panicked, else with a's, once neither runs any more, as a
// *PanicError with Call "Join". Join panics if a or b is nil.
//
//go:norace
func Join(a, b func()) {
	// go:norace: see Do. Join reads nothing shared but the pool's idle hint.
	checkFunc("Join", "a", a == nil)
	checkFunc("Join", "b", b == nil)
	// When every worker of the pool is busy at the call (none searching for
	// work or asleep), Join calls b and then a here without entering the
	// pool, as Do does: a call made in a or b forks once a worker is free.
	// Else the caller takes part in the pool as a guest worker for the
	// duration of the call (forkJoin), as Do and Group.Wait do.
	if st := thePool.Idle(); st.Busy() || st.Vacant() && inlineUnstarted() { // see inlineUnstarted
		defer rethrowJoin() // in this frame: see Do
		b()
		a()
		return
	}
	forkJoin(a, b)
}

// forkJoin is Join where a worker is free: the caller enters the pool as
// a guest and forks a, which waits on the guest's deque where an idle
// worker may steal it, and runs after b on the caller if nobody did. The
// goroutine has no Worker of its own to fork on:
// Go has no goroutine-local storage, and reading the goroutine's id to
// look a worker up costs more than a fork (see Worker). Entering and
// leaving takes the pool's lock twice, where w.Join and Both inside a task
// take no lock and allocate nothing (BenchmarkForkTop/impl=join against
// impl=both). Where no worker is free, Join's inline path makes no call of
// the race detector's runtime in a -race build, as Do's.
func forkJoin(a, b func()) {
	w := thePool.acquire()
	defer func() { // one deferred call, and no closure for guard: see forkDo
		thePool.release(w)
		if r := recover(); r != nil {
			panic(wrapPanic("Join", r))
		}
	}()
	Both(w, callFunc, a, b)
}

// callFunc calls f: Both(w, callFunc, a, b) is Join(a, b) on w, with no
// closure.
func callFunc(_ *Worker, f func()) struct{} {
	f()
	return struct{}{}
}
