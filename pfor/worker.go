package pfor

import (
	"context"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/deque"
	"github.com/stealkit/stealkit/internal/sched"
)

// A Worker is a task's handle on the pool: the worker goroutine that
// runs the task, with its work-stealing deque. Task functions receive one;
// forking through it (Join, Both, Worker.Go) pushes onto that worker's deque
// at the cost of two atomic stores, where other goroutines can steal the
// work, and waiting through it (Join, Both, Worker.Wait) runs other tasks
// instead of blocking.
//
// Go has no goroutine-local storage, so the scheduler cannot find the
// current worker by itself: the handle is how it knows, which is why task
// functions take a *Worker. Like a *testing.T, a Worker must be used only by
// the function it was passed to, on that function's goroutine, and only
// until it returns; using it from a goroutine the task started corrupts the
// deque, whose owner end is not safe for concurrent use.
//
// # The pool
//
// Tasks (Join, Both, Worker.Go and Group, Do, Sort) run on the pool that
// runs loops: GOMAXPROCS-1 worker goroutines, each with a work-stealing
// deque, started on first use and following GOMAXPROCS. Entry points that
// take no Worker (Run, Join, Do, Group.Wait, Sort, SortStableFunc) make the
// calling goroutine a guest worker for the duration of the call, with a
// deque of its own that the pool's workers steal from: one worker per
// GOMAXPROCS in all, the caller takes part in its own work, and waiting
// from outside the pool, from a loop body say, cannot deadlock even when
// every pool worker is busy. Idle workers look for loop slots and steal
// tasks from random victims, yielding the processor every few attempts,
// and after 50 µs without work sleep without using CPU until work appears.
//
// Tasks are for computation: a task that blocks (on I/O, a lock, a channel
// another task feeds) holds its worker meanwhile, and one that waits for
// another task other than through this package's waits (Join, Both, Wait,
// Do, ...), which run tasks while they wait, may deadlock.
type Worker struct {
	dq   *deque.Deque[task]
	pool *pool
	park *sched.Parker
	rng  uint64 // xorshift state for choosing victims
	seen uint64 // the pool's gen when a look of the main loop last found no loop job open

	index   int             // pool workers: index in the pool; guests: -1
	labels  context.Context // pool workers: the goroutine's profile labels
	retired bool            // pool workers: the goroutine has ended; guarded by the pool's mu
	dropped bool            // guests: off the victims for good; guarded by the pool's mu

	// Frames for Join and Both, reused by depth: frames[depth] is the next
	// one (see fork).
	frames []*task
	depth  int

	// The id of the goroutine using the worker, for Group.Wait's check for
	// a task waiting for its own Group (see goid): pool workers set it
	// when their goroutine starts, guests while in Group.Wait; else 0.
	gid atomic.Uint64

	free []*groupTask // finished Group tasks for reuse (see groupTasks)
	cur  *groupTask   // the Group task running innermost on this worker, or nil

	do doCall // guests: the Do call holding the guest

	_ cacheLinePad // the owner writes depth, free and cur all the time
}

// searchYield: a searching worker yields every searchYield rounds.
const searchYield = 8

// push makes t available to thieves and wakes a sleeping worker if nobody
// is searching.
func (w *Worker) push(t *task) {
	w.dq.Push(t)
	w.pool.idle.Notify()
}

// helpUntil runs tasks, its own deque's newest first, then stolen ones, and
// slots of loop jobs posted since it began, until done reports true. done
// must become true only through an atomic operation followed by Unpark of
// the waiter's parker, as frames and Groups do, so that a sleeping waiter
// wakes. If not nil, enlist is called before each look at done that may be
// followed by sleep (see search): a waiter that must make itself known to
// whoever makes done true, as Worker.Wait does with the Group, does it
// there, and pays nothing when it never sleeps.
func (w *Worker) helpUntil(done func() bool, enlist func()) {
	since := w.pool.loops.Seqs() // loop jobs posted before may be further down this goroutine's stack
	for !done() {
		if t := w.dq.Pop(); t != nil {
			w.execute(t)
			continue
		}
		t, j, s := w.search(done, enlist, since)
		switch {
		case t != nil:
			w.execute(t)
		case j != nil:
			j.RunSlot(s)
		default:
			return
		}
	}
}

// execute runs t, a task from some deque or the injection queue.
func (w *Worker) execute(t *task) {
	if t.owner != nil {
		w.runFrame(t)
		return
	}
	t.job.exec(w)
}

// search looks for work until it finds some, which it returns: a task, or
// slot s of loop job j whose seq is above since. It returns
// neither when done reports true. done == nil is the main loop of a pool
// worker, which gets neither when it must retire (StopSearch then passes on
// any wake-up meant for it). enlist, if not nil, is called in each sleep's
// last look, before done (see helpUntil).
//
// Every few rounds it yields the processor, as Arora, Blumofe and Plaxton's
// thieves do in a multiprogrammed system, so that a preempted goroutine
// holding work gets to run; after spinFor without finding anything it
// sleeps. (Yielding every round would be too much: runtime.Gosched takes
// the scheduler's global lock, and a spinning worker then slows every
// goroutine of the process. Measured: BenchmarkDo.)
func (w *Worker) search(done func() bool, enlist func(), since uint64) (*task, *sched.Job, int) {
	// One round before announcing the search: most searches of a busy pool
	// succeed at once, and the announcement is a write to a word that every
	// push and post reads (see sched.Idle).
	if done == nil && w.pool.excess(w) || done != nil && done() {
		return nil, nil, 0
	}
	if t, j, s := w.look(since); t != nil || j != nil {
		return t, j, s
	}
	idle := &w.pool.idle
	idle.StartSearch()
	var start time.Time
	for round := 1; ; round++ {
		if done != nil && done() || done == nil && w.pool.excess(w) {
			idle.StopSearch()
			return nil, nil, 0
		}
		if t, j, s := w.look(since); t != nil || j != nil {
			idle.StopSearch()
			return t, j, s
		}
		if round%searchYield != 0 {
			continue
		}
		if now := time.Now(); start.IsZero() {
			start = now
		} else if now.Sub(start) > spinFor {
			// Loop calls follow GOMAXPROCS only when it has grown (see
			// post): a worker about to sleep follows it down too, and
			// retires if it is now above the target. A pool worker above
			// the target must not sleep through the Unpark that resize
			// sends it, or it would keep its goroutine.
			if done == nil {
				w.pool.grow()
			}
			idle.Sleep(w.park, func() bool {
				if enlist != nil {
					enlist()
				}
				return done != nil && done() || done == nil && w.pool.excess(w) || w.pool.hasWork(since)
			})
			start = time.Time{}
			continue
		}
		runtime.Gosched()
	}
}

// look takes a slot of the newest loop job whose seq is above since, else
// a task from the injection queue, else tries each other deque once,
// starting at a random one.
func (w *Worker) look(since uint64) (*task, *sched.Job, int) {
	p := w.pool
	// Jobs posted up to the generation of a look that found none open stay
	// full: the main loop of a pool worker (since 0) looks at posted again
	// only once a post has moved gen. A waiter, which skips older jobs,
	// looks every time.
	if g := p.loops.Gen(); since != 0 || g != w.seen {
		if j, s := p.loops.Claim(since); j != nil {
			return nil, j, s
		}
		if since == 0 {
			w.seen = g
		}
	}
	if t := p.inject.Pop(); t != nil {
		return t, nil, 0
	}
	vs := *p.victims.Load()
	n := uint64(len(vs))
	for i, start := uint64(0), w.random()%n; i < n; i++ {
		v := vs[(start+i)%n]
		if v == w {
			continue
		}
		if t := v.dq.Steal(); t != nil {
			return t, nil, 0
		}
	}
	return nil, nil, 0
}

// random returns the next number of w's xorshift generator.
func (w *Worker) random() uint64 {
	w.rng ^= w.rng << 13
	w.rng ^= w.rng >> 7
	w.rng ^= w.rng << 17
	return w.rng
}

// loop is a pool worker's goroutine: it runs tasks and loop slots until
// the pool retires it. If a task or a loop body ends the goroutine with
// runtime.Goexit instead, the deferred call starts a replacement, so the
// pool keeps its size.
func (w *Worker) loop() {
	retired := false
	defer func() {
		if !retired {
			go w.loop()
		}
	}()
	if w.labels == nil {
		w.labels = helperLabels(strconv.Itoa(w.index))
	} else {
		pprof.SetGoroutineLabels(w.labels)
	}
	w.gid.Store(goid())
	for {
		if t := w.dq.Pop(); t != nil {
			w.execute(t)
			continue
		}
		if w.pool.retire(w) {
			retired = true
			return
		}
		t, j, s := w.search(nil, nil, 0)
		switch {
		case t != nil:
			w.execute(t)
		case j != nil:
			runSlot(w.labels, j, s)
		default:
			if retired = w.pool.retire(w); retired {
				return
			}
		}
	}
}
