package pfor

// A Future is the result of a task started with Spawn or Go, to be
// collected with Get or Wait.
//
// Futures are for what Join and Both cannot express: the results are
// collected in any order, possibly more than once, by a caller that need
// not be the one that spawned the task, and several may be outstanding at
// a time (a task that spawns four quadrants and then gets them). Where a
// computation forks in two and joins at once, Both costs less: it
// allocates nothing.
//
// Waiting for a Future (Get, Wait) runs other tasks meanwhile, as
// Worker.Wait and Group.Wait do.
//
// Futures got only by the task that spawned them or by its ancestors (the
// fork-join shape: a tree of tasks) cannot deadlock. Futures shared
// across the tree can: a worker waiting in Get runs whatever task it
// finds, and if that task gets a future whose task is the one suspended
// beneath it on the same goroutine, neither can finish.
type Future[T any] struct{ future[T] }

// A FutureErr is a Future whose task also returns an error: the result of
// SpawnErr. Its Get returns both.
type FutureErr[T any] struct{ future[T] }

// future is what Future and FutureErr share; they differ only in Get. A
// future is a Group of one task that keeps the task's result: the Group's
// counting, waking, panic capture and waiting are the future's.
type future[T any] struct {
	g   Group // of the one task, which stores val before it finishes
	val T
}

// Spawn starts f as a task on the pool and returns its Future. It is
// Worker.Go for a task with a result: called from a task, with that task's
// Worker w, it pushes f onto w's deque, where w runs it when it is next idle
// (in Get at the latest) unless another worker steals it first; called
// from outside the pool, with w nil, it queues f for the first idle worker,
// as Group.Go does.
//
// f is called on some worker's goroutine, concurrently with the caller and
// with other tasks; it gets the Worker running it, to fork and spawn
// further. Like every task it must not block except in this package's
// waits (Get, Join, Wait, ...), which run other tasks meanwhile.
//
// If f panics, every Get of the Future re-raises the panic as a
// *PanicError with the stack of the panic site. If f ends the goroutine
// running it with runtime.Goexit, which may be one that called Get or Wait
// (they run tasks while they wait, this one too; that call never returns),
// f did not return: every other Get re-raises a *PanicError whose Value
// says that Goexit was called. Spawn panics if f is nil.
//
// Spawn takes O(1) time. It allocates the Future and a closure wrapping f,
// and a Get that has to wait allocates a list of waiters: a fork with Both
// allocates nothing and costs less.
func Spawn[T any](w *Worker, f func(w *Worker) T) *Future[T] {
	// BenchmarkFuture/fib=27 against BenchmarkFib/impl=both/n=27 compares
	// a future with a fork by Both.
	checkFunc("Spawn", "f", f == nil)
	fu := new(Future[T])
	fu.spawn(w, func(w *Worker) error {
		fu.val = f(w)
		return nil
	})
	return fu
}

// SpawnErr is Spawn for a task that can fail: Get returns f's error with
// its result. A panic in f is re-raised by Get, as for Spawn. SpawnErr
// panics if f is nil.
func SpawnErr[T any](w *Worker, f func(w *Worker) (T, error)) *FutureErr[T] {
	checkFunc("SpawnErr", "f", f == nil)
	fu := new(FutureErr[T])
	fu.spawn(w, func(w *Worker) error {
		v, err := f(w)
		fu.val = v
		return err
	})
	return fu
}

// Get returns the task's result once the task has returned; the task's
// writes synchronize before Get returns. Called from a task, with that
// task's Worker w, Get runs tasks until the result is ready, its own
// deque's newest first (so a future that nobody stole is run on the spot),
// then stolen ones, and sleeps only when there is no task to run anywhere:
// a worker in Get is never blocked while there is work. Called from
// outside the pool, with w nil, Get takes part in the pool's work as a
// guest worker until the result is ready, as Group.Wait does. Either way
// Get may return later than the result is ready, by as long as a task it
// picked up runs.
//
// Get may be called any number of times, from several goroutines at once;
// each call returns the same value. If the task panicked, each call
// re-raises its panic, a *PanicError. Get panics if f is nil or if called
// from the future's own task, which would wait for itself.
func (f *Future[T]) Get(w *Worker) T {
	if f == nil {
		panic("pfor: Future.Get: nil *Future")
	}
	v, _ := f.get(w, "Future.Get")
	return v
}

// Get returns the task's result and error once the task has returned, and
// behaves in every other way as Future.Get.
func (f *FutureErr[T]) Get(w *Worker) (T, error) {
	if f == nil {
		panic("pfor: FutureErr.Get: nil *FutureErr")
	}
	return f.get(w, "FutureErr.Get")
}

// Go starts f as a task on the pool and returns its Future, to be
// collected with Wait: Spawn for a caller that holds no Worker (outside the
// pool, or in a function given to Join, Do or Range) and a function that
// needs none. f is queued for the first idle worker, as Group.Go queues a
// task, and called on some worker's goroutine, concurrently with the
// caller; panics are re-raised by Wait and Get as *PanicError with Call
// "Future", and runtime.Goexit in f behaves as in Spawn. Go panics if f is
// nil.
func Go[T any](f func() T) *Future[T] {
	checkFunc("Go", "f", f == nil)
	fu := new(Future[T])
	fu.spawn(nil, func(*Worker) error {
		fu.val = f()
		return nil
	})
	return fu
}

// Wait is Get for a caller that holds no Worker: Get(nil). It takes part
// in the pool's work until the result is ready, and panics as Get does.
// The future's own task must not call Wait, which would wait for itself
// forever: unlike Get(w) and Group.Wait, Wait does not check. Wait panics
// if f is nil.
func (f *Future[T]) Wait() T {
	if f == nil {
		panic("pfor: Future.Wait: nil *Future")
	}
	// Telling whether the caller is the future's own task would need the
	// goroutine's id, which costs a traceback (see Group.Wait): much more
	// than a future.
	v, _ := f.get(nil, "Future.Wait")
	return v
}

// Wait is Get for a caller that holds no Worker: Get(nil), as for Future.
func (f *FutureErr[T]) Wait() (T, error) {
	if f == nil {
		panic("pfor: FutureErr.Wait: nil *FutureErr")
	}
	return f.get(nil, "FutureErr.Wait")
}

// spawn starts run as the future's one task: from w's deque, or from the
// injection queue if w is nil.
func (f *future[T]) spawn(w *Worker, run func(w *Worker) error) {
	f.g.name = "Future"
	if w == nil {
		f.g.Go(run)
		return
	}
	w.Go(&f.g, run)
}

// get waits for the future's task, running tasks meanwhile, and returns
// its result.
//
// It must not block its goroutine on a channel until the task is done.
// That is the textbook deadlock of futures on a fixed pool: every worker
// waits on a future whose task sits in a queue that only the waiting
// workers would run (a chain of nested futures deeper than the pool has
// workers is enough). Starting a goroutine to replace each blocked worker
// avoids the deadlock but grows goroutines with the nesting depth. Helping
// through Worker.Wait does neither: the waiting goroutine runs the task, or
// other tasks while a thief runs it.
func (f *future[T]) get(w *Worker, call string) (T, error) {
	if w == nil {
		err := f.g.help()
		return f.val, err
	}
	if w.cur != nil && w.cur.g == &f.g {
		panic("pfor: " + call + ": called from the future's own task, which would wait for itself")
	}
	err := w.Wait(&f.g)
	return f.val, err
}
