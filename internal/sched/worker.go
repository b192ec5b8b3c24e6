package sched

import (
	"context"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/deque"
)

// A Worker is a goroutine's place in the pool: a pool worker's, or a
// guest's (a goroutine that forks or waits for tasks from outside the
// pool), with its work-stealing deque and its stack of Join frames. Only
// the goroutine using it may call its methods, and only while it uses it;
// the deque's owner end is not safe for concurrent use.
type Worker struct {
	dq   *deque.Deque[Task]
	pool *Pool
	park *Parker
	rng  uint64 // xorshift state for choosing victims
	seen uint64 // the pool's gen when a look of the main loop last found no loop job open

	index   int             // pool workers: index in the pool; guests: -1
	labels  context.Context // pool workers: the goroutine's profile labels
	retired bool            // pool workers: the goroutine has ended; guarded by the pool's mu
	dropped bool            // guests: off the victims for good; guarded by the pool's mu

	// Frames for Join and Both, reused by depth: frames[depth] is the next
	// one (see fork).
	frames []*Task
	depth  int

	// GID is the id of the goroutine using the worker (see GoID), for
	// Group.Wait's check for a task waiting for its own Group: pool workers
	// set it when their goroutine starts, guests while in Group.Wait; else
	// 0.
	GID atomic.Uint64
}

// Park returns w's parker: whoever makes a condition w waits for in
// HelpUntil true unparks it.
func (w *Worker) Park() *Parker { return w.park }

// searchYield: a searching worker yields every searchYield rounds.
const searchYield = 8

// Push makes t available to thieves and wakes a sleeping worker if nobody
// is searching.
func (w *Worker) Push(t *Task) {
	w.dq.Push(t)
	w.pool.idle.Notify()
}

// HelpUntil runs tasks, its own deque's newest first, then stolen ones, and
// slots of loop jobs posted since it began, until done reports true. done
// must become true only through an atomic operation followed by Unpark of
// the waiter's parker, as frames and Groups do, so that a sleeping waiter
// wakes. If not nil, enlist is called before each look at done that may be
// followed by sleep (see search): a waiter that must make itself known to
// whoever makes done true, as Worker.Wait does with the Group, does it
// there, and pays nothing when it never sleeps.
func (w *Worker) HelpUntil(done func() bool, enlist func()) {
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
			j.runSlot(s)
		default:
			return
		}
	}
}

// execute runs t, a task from some deque or the injection queue.
func (w *Worker) execute(t *Task) {
	if t.owner != nil {
		w.runFrame(t)
		return
	}
	t.Job.Exec(w)
}

// search looks for work until it finds some, which it returns: a task, or
// slot s of loop job j whose seq is above since. It returns
// neither when done reports true. done == nil is the main loop of a pool
// worker, which gets neither when it must retire (StopSearch then passes on
// any wake-up meant for it). enlist, if not nil, is called in each sleep's
// last look, before done (see HelpUntil).
//
// Every few rounds it yields the processor, as Arora, Blumofe and Plaxton's
// thieves do in a multiprogrammed system, so that a preempted goroutine
// holding work gets to run; after spinFor without finding anything it
// sleeps. While it waits for the processor again it does not count as
// searching (Idle.Yield): with more goroutines than processors that wait
// lasts as long as the goroutines ahead of it run, and Do and Join,
// which fork only while a worker is idle, would otherwise fork to a
// worker that takes nothing meanwhile. (Yielding every round would be too much: runtime.Gosched takes
// the scheduler's global lock, and a spinning worker then slows every
// goroutine of the process. Measured: BenchmarkDo.)
func (w *Worker) search(done func() bool, enlist func(), since uint64) (*Task, *Job, int) {
	// One round before announcing the search: most searches of a busy pool
	// succeed at once, and the announcement is a write to a word that every
	// push and post reads (see Idle).
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
				w.pool.Grow()
			}
			w.park.floor = since
			idle.Sleep(w.park, func() bool {
				if enlist != nil {
					enlist()
				}
				if done != nil && done() || done == nil && w.pool.excess(w) || w.pool.hasWork(since) {
					return true
				}
				// A job posted before this wait began, which it does not
				// take, may have counted on it as a searcher or spent its
				// wake-up on it: hand the job on to a sleeper that takes it.
				if since != 0 {
					if j := w.pool.loops.Open(0); j != nil {
						idle.WakeFor(j.seq.Load())
					}
				}
				return false
			})
			start = time.Time{}
			continue
		}
		idle.Yield()
	}
}

// look takes a slot of the newest loop job whose seq is above since, else
// a task from the injection queue, else tries each other deque once,
// starting at a random one.
func (w *Worker) look(since uint64) (*Task, *Job, int) {
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
	w.GID.Store(GoID())
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
			helpSlot(w.labels, j, s)
		default:
			if retired = w.pool.retire(w); retired {
				return
			}
		}
	}
}
