package pfor

import "strconv"

// Do calls every function in fns and returns when all have returned: in
// parallel where workers of the task pool are free to take them, else one
// after another on the calling goroutine. It is Join for more than two
// functions, with the contract of Rayon's join and oneTBB's
// parallel_invoke: the functions may run one after another, in any order,
// so they must not wait for each other (on a channel, a lock, a
// WaitGroup); a function that waits for another may wait forever (always
// at GOMAXPROCS 1, where the pool has no worker but the caller). Functions
// that must run at the same time need goroutines of their own.
//
// Do may be called from anywhere, tasks and loop bodies included, and the
// functions may themselves call Do: the caller takes part as a guest
// worker, pushing fns[1:] onto its deque, where idle workers steal them
// oldest first, running fns[0], and then running whatever was not stolen,
// newest first, or other tasks of the pool while a stolen one runs. The
// functions are called concurrently from several goroutines; writes made
// by any of them happen before Do returns.
//
// If a function panics, functions not yet started do not start, those
// running finish, and Do re-raises the first panic as a *PanicError with
// Call "Do". Do panics if a function is nil.
//
// Costs: entering and leaving the pool, and a task per function
// (BenchmarkDo, BenchmarkForkTop/impl=do); Join and Both are cheaper.
func Do(fns ...func()) {
	for i, f := range fns {
		checkFunc("Do", "fns["+strconv.Itoa(i)+"]", f == nil)
	}
	if len(fns) == 0 {
		return
	}
	// Guaranteeing every function a goroutine of its own when no worker
	// is free was rejected: in the nested fork-join Do is made for, no
	// worker ever is free, so Do would start a goroutine per function, whose
	// number grows with the nesting, and pay for it (BenchmarkForkTop:
	// impl=goroutine against impl=do); whether a worker "is free" cannot be
	// known either without a claim on each function. Where functions must
	// run at the same time, goroutines are the tool.
	w := taskSched.acquire()
	defer taskSched.release(w)
	g := &Group{name: "Do"}
	for _, f := range fns[1:] {
		t := w.newGroupTask(g)
		t.plain = f
		w.push(&t.task)
	}
	t := w.newGroupTask(g)
	t.plain = fns[0]
	t.exec(w)
	w.Wait(g)
}
