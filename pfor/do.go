package pfor

import (
	"runtime"
	"strconv"
	"sync/atomic"
)

// Do calls every function in fns and returns when all have returned: in
// parallel where workers of the pool are free to take them, else one
// after another on the calling goroutine. It is Join for more than two
// functions. fns[0] is called first, on the calling goroutine; the others
// either on other workers or later on the calling goroutine, in no
// particular order. So the functions must not wait for each other (on a
// channel, a lock, a WaitGroup): a function that waits for another may
// wait forever (always at GOMAXPROCS 1, where the pool has no worker but
// the caller). Functions that must run at the same time need goroutines of
// their own.
//
// Do may be called from any goroutine, tasks and loop bodies included, and
// the functions may themselves call Do. The functions are called
// concurrently from several goroutines; writes made by any of them happen
// before Do returns. A single function runs on the calling goroutine.
//
// If a function panics, functions not yet started do not start, those
// running finish, and Do re-raises the first panic as a *PanicError with
// Call "Do". Do panics if a function is nil, before calling any.
//
// Costs: O(len(fns)) besides the functions. Do itself allocates nothing
// in steady state for up to 1024 functions, and a copy of fns for more; a
// function literal that captures variables is allocated by the caller.
// Inside a task, Both and Worker.Join cost less.
//
//go:norace
func Do(fns ...func()) {
	// go:norace, here and on rethrowDo, keeps the inline path, which
	// nested fork-join takes far more often than it forks, out of the race
	// detector's runtime: instrumented, Do's entry and exit, its defer
	// (which the instrumented exit keeps from being open-coded) and its
	// reads of fns cost many times the functions such calls are given. Do
	// reads nothing shared but the pool's idle hint, a race by design (see
	// Pool.Idle), and fns, which is the caller's: what the detector loses
	// is a race on fns itself. The functions, forkDo and what they call
	// are instrumented as all code is. BenchmarkForkBusy and
	// BenchmarkRangeDo (every worker busy with loops) measure the inline
	// path, BenchmarkDo and BenchmarkForkTop/impl=do the forking one.
	if len(fns) == 2 && fns[0] != nil && fns[1] != nil {
		// Do(f, g), the commonest call, in Join's shape: the two functions
		// read once, with no loop to check them or to call them. Nested in
		// loop bodies such calls nearly always take the inline path, where
		// the loops were much of what Do itself costs under the race
		// detector. The paths are those of the general case below; a nil
		// function goes there to be named.
		a, b := fns[0], fns[1]
		if st := thePool.Idle(); st.Busy() || st.Vacant() && inlineUnstarted() {
			defer rethrowDo()
			a()
			b()
			return
		}
		forkDo(fns)
		return
	}
	for i, f := range fns {
		if f == nil {
			panic("pfor: Do: fns[" + strconv.Itoa(i) + "] is nil")
		}
	}
	// With two functions or more, when every worker of the pool is busy
	// at the call (none searching for work or asleep), Do calls fns in
	// order on the calling goroutine without entering the pool, as the
	// forks below would when no worker steals; the functions call Do in
	// turn, and those calls fork once a worker is free. That path costs
	// two loads (and at GOMAXPROCS 1, where the pool has no worker, a read
	// of GOMAXPROCS) and one deferred recover besides calling fns. Else the
	// caller takes part as a guest worker (entering and leaving the pool,
	// as Join does) and forks as Both does, halving fns: it leaves the
	// second half on its deque, where an idle worker may steal it, and goes
	// on with the first, down to fns[0], which it runs first; then it takes
	// back, newest first, the halves nobody stole, or runs other tasks of
	// the pool while a stolen one runs.
	if st := thePool.Idle(); len(fns) < 2 || st.Busy() || st.Vacant() && inlineUnstarted() {
		// In this frame, under one deferred recover, with no other call:
		// under the race detector each call, defer and atomic operation
		// costs more than the functions of a nested fork-join that come
		// here often do.
		defer rethrowDo()
		for _, f := range fns {
			f()
		}
		return
	}
	forkDo(fns)
}

// forkDo is Do where a worker is free: the caller enters the pool as a
// guest and forks fns by halves.
//
// Guaranteeing every function a goroutine of its own when no worker is
// free was rejected: in the nested fork-join Do is made for, no worker
// ever is free, so Do would start a goroutine per function, whose number
// grows with the nesting, and pay for it (BenchmarkForkTop:
// impl=goroutine against impl=do); whether a worker "is free" cannot be
// known either without a claim on each function. Where functions must run
// at the same time, goroutines are the tool.
func forkDo(fns []func()) {
	w := thePool.acquire()
	c := &w.do
	defer func() { // one deferred call: no defer is open-coded under the race detector
		// c.call records the functions' panics; what reaches here is a
		// stolen span's runtime.Goexit, which Both re-raises unnamed.
		r := recover()
		c.reset()
		thePool.release(w)
		if r != nil {
			panic(wrapPanic("Do", r))
		}
	}()
	// Thieves read the functions from the guest, which outlives the call:
	// keeping fns itself in a frame would make every caller's variadic
	// slice escape to the heap. make gives exactly the room asked for,
	// where append would round it up to a size class: above maxDoFns for
	// 1024 functions, so that reset would drop it after every call.
	if cap(c.fns) < len(fns) {
		c.fns = make([]func(), 0, len(fns))
	}
	c.fns = append(c.fns, fns...)
	c.run(w, 0, len(fns))
	if p := c.panic.Load(); p != nil {
		panic(p)
	}
}

// inlineUnstarted grows the pool to GOMAXPROCS and reports whether it
// still has no worker, which is so only at GOMAXPROCS 1: there it reports
// true at once, as the pool then has no worker to start. It completes the
// test by which Do and Join choose to call their functions one after
// another on the calling goroutine, without entering the pool: whether
// every worker of the pool is running. They read thePool.Idle(), two
// plain loads, a hint that synchronizes with nothing, in their own frames
// (the race detector makes every call and atomic operation dear). Its
// Busy reports that once workers have started; the pool may have fewer
// than GOMAXPROCS-1 then: reading GOMAXPROCS is too dear for every call,
// and loop calls, forks and sleeping workers follow it (see sched), as
// does the next call here once one of these workers is idle. Where it is
// Vacant instead, no worker has started (the pool is new, or GOMAXPROCS
// is or was 1), and none would ever be idle to make a later call fork and
// start the others, so only GOMAXPROCS tells whether some should run:
// they call inlineUnstarted. The workers it starts are not searching yet,
// so the pool reads as busy, but they are about to: the call forks, and
// they steal from it, so that a process's first Do or Join runs its
// functions in parallel as later ones do (TestForkStartsThePool).
//
// Entering the pool as a guest takes its lock twice and a fork costs a
// push, a pop and a wake-up check, atomic operations that the race
// detector makes dear; when no worker is searching or asleep, the forked
// function waits on the guest's deque for a thief that is not there and
// the caller takes it back itself, so the functions run in the same order
// on the same goroutine as here. The state is read once, at the call: a
// worker that becomes free later cannot take a function of a call that
// chose to run inline, so the second of two long functions waits for the
// first. Recursive fork-join, what Do and Join are made for, keeps its
// balance all the same, because the choice is made at every call, not once
// for a tree: a function run inline that forks again calls Do or Join
// again, at every level of the tree down to its leaves, and the first call
// made after a worker became free forks, and hands that worker half of
// what is left below it; the halves of the levels above, which cannot be
// stolen, are entered as calls of their own in turn and fork then too.
// (Schedulers that create tasks lazily, as Tzannes, Caragea, Barua and
// Vishkin's lazy scheduling does, rest on the same argument.)
// TestForkAfterBusyLoop checks that a tree started while every worker is
// busy hands leaves to the workers freed afterwards.
//
// At GOMAXPROCS 1 the pool stays Vacant, so every call of Do and Join
// comes here: it reads GOMAXPROCS alone then (the runtime's lock, which
// the race detector does not see), not the pool's atomics that growing
// loads, each many times dearer under the detector. go:norace
// keeps the detector's entry and exit out as well: inlineUnstarted itself
// reads only thePool, set at package initialization, and what it calls
// is instrumented as all code is.
//
//go:norace
func inlineUnstarted() bool {
	if runtime.GOMAXPROCS(0) == 1 {
		return true
	}
	thePool.Grow()
	return thePool.Idle().Vacant()
}

// maxDoFns bounds the functions a guest keeps room for between Do calls:
// a larger Do allocates its copy of fns. Do's doc names its value.
const maxDoFns = 1024

// doCall is the state of the Do call that holds a guest Worker, shared by
// the workers that run its functions: fns is written by the caller before
// the first fork that publishes it, and read by thieves after the steal;
// the first panic stops the call and is kept for the caller to re-raise.
type doCall struct {
	fns   []func()
	stop  atomic.Bool                // set by the first panic
	panic atomic.Pointer[PanicError] // the first panic
}

// doSpan is the part [lo, hi) of c.fns that a fork hands on.
type doSpan struct {
	c      *doCall
	lo, hi int
}

// runSpan is doCall.run in the shape that Both takes.
func runSpan(w *Worker, s doSpan) struct{} {
	s.c.run(w, s.lo, s.hi)
	return struct{}{}
}

// run calls c.fns[lo:hi] on w unless c has stopped: halves go on w's
// deque (Both), so that a thief takes half of what is left at once.
func (c *doCall) run(w *Worker, lo, hi int) {
	if c.stop.Load() {
		return
	}
	if hi-lo == 1 {
		c.call(lo)
		return
	}
	m := lo + (hi-lo)/2
	Both(w, runSpan, doSpan{c, m, hi}, doSpan{c, lo, m})
}

// call calls c.fns[i], recording a panic instead of raising it: the
// functions of other spans go on to skip, and Both waits for them.
func (c *doCall) call(i int) {
	defer func() {
		if r := recover(); r != nil {
			c.stop.Store(true) // before capturing the stack, which takes a while
			c.panic.CompareAndSwap(nil, wrapPanic("Do", r))
		}
	}()
	c.fns[i]()
}

// reset readies c for the guest's next Do call, keeping no function or
// panic of this one alive. No thief reads c any more: Both has waited for
// every stolen span.
func (c *doCall) reset() {
	clear(c.fns)
	c.fns = c.fns[:0]
	if cap(c.fns) > maxDoFns {
		c.fns = nil
	}
	if c.stop.Load() { // only a panic stops c, and it stores the panic after
		c.stop.Store(false)
		c.panic.Store(nil)
	}
}
