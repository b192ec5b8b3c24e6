package pfor

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/deque"
	"github.com/stealkit/stealkit/internal/sched"
)

// The pool.
//
// Every call of the package runs on one pool: loops (Range and friends)
// and tasks (Join, Both, Group, Do, Sort, futures) share its workers, their
// deques and their sleep. The pool has GOMAXPROCS-1 worker goroutines, each
// with a work-stealing deque (internal/deque), and every goroutine that
// calls into the package takes part in its own work: a loop's caller runs
// slot 0 and every slot no worker has claimed; a goroutine that forks or
// waits for tasks from outside the pool (Join, Do, Group.Wait, ...) does so
// as a guest worker with a deque of its own. So there is one worker per
// GOMAXPROCS, and no call depends on a pool worker for progress.
//
// Work reaches the workers in three ways. A task forked inside the pool is
// pushed on its worker's deque. A loop call posts its job in posted (see
// post.go), from which workers claim its worker slots, one per claim. A
// task submitted from outside (Group.Go, Go) goes to the injection queue.
// A worker with nothing to do looks at its own deque, newest first, then at
// the posted loop jobs, newest first, then at the injection queue, then
// steals the oldest task of a random other deque; it yields every few
// rounds, as a thief does in work stealing for multiprogrammed systems, and
// after 50 µs without finding work it sleeps on a channel (internal/sched's
// Idle protocol) until a push, a post or an injection wakes it. Idle
// workers use no CPU; a loop post wakes as many sleepers as it has slots
// for helpers, less the workers already searching.
//
// A guest that waits (for a stolen frame, a Group) runs other work
// meanwhile: tasks, and slots of loop jobs posted after its wait began.
// Not earlier ones: a job posted before may be one whose slot the guest's
// own goroutine is running further down its stack, and a slot of that job
// could wait for a range its own goroutine holds.
//
// The pool starts on first use and follows GOMAXPROCS as entry points see
// it: it starts workers when it has grown, and a worker whose index is no
// longer below GOMAXPROCS-1 retires (its goroutine ends) the next time its
// deque is empty, and leaves the victims until it starts again. A loop call
// that asks for more workers than that (WithWorkers) starts extra helpers,
// which claim loop slots only, and end after spinFor without any.
//
// Guests are kept for reuse after the call, with their deques still among
// the victims, so that a task a guest left behind (spawned with Worker.Go
// for a Group waited on elsewhere) is still stolen. Only a few are kept:
// once more than 2*GOMAXPROCS guests are free, the oldest free ones whose
// deques are empty are dropped down to GOMAXPROCS, and leave the victims,
// so that an idle worker's search walks the deques of the workers, of the
// guests in a call and of a few others, not one deque for every call that
// was ever under way at the same time. (A free guest's deque has no owner:
// once empty it stays empty, and dropping it loses no task.)
type pool struct {
	victims   atomic.Pointer[[]*Worker] // running workers, guests in use or kept; replaced under mu
	target    atomic.Int32              // GOMAXPROCS-1 as last seen: pool workers at or above it retire
	liveBelow atomic.Int32              // pool workers [0, liveBelow) are running
	live      atomic.Int32              // pool workers whose goroutine runs
	inject    sched.Queue[task]
	idle      sched.Idle

	// Loop jobs (see post.go).
	loops  sched.Posted
	extras atomic.Int32 // extra helpers running: mirrors nextra for post's fast path

	mu       sync.Mutex
	workers  []*Worker // pool workers by index, retired ones included
	guests   []*Worker // guests not in use, oldest first
	made     uint64    // Workers made, to seed each one's generator differently
	nextra   int       // extra helpers running
	extraIDs int       // extra helpers ever started: names them in profiles
}

var thePool = newPool()

func newPool() *pool {
	p := new(pool)
	p.victims.Store(new([]*Worker))
	return p
}

// grow brings the default pool to GOMAXPROCS-1 workers.
func (p *pool) grow() { p.resize(int32(runtime.GOMAXPROCS(0)) - 1) }

// resize brings the pool to n workers: it starts those missing, and wakes
// those above, which then retire.
func (p *pool) resize(n int32) {
	if p.target.Load() == n && p.liveBelow.Load() >= n {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if old := p.target.Swap(n); n < old {
		for _, w := range p.workers[n:] {
			if !w.retired {
				w.park.Unpark()
			}
		}
	}
	for i := range int(n) {
		if i == len(p.workers) {
			w := p.newWorker()
			w.index = i
			w.retired = true
			p.workers = append(p.workers, w)
		}
		if w := p.workers[i]; w.retired {
			w.retired = false
			p.live.Add(1)
			p.list(w)
			go w.loop()
		}
	}
	p.liveBelow.Store(max(n, 0))
}

// excess reports whether pool worker w is above the pool's target.
func (p *pool) excess(w *Worker) bool { return int32(w.index) >= p.target.Load() }

// retire ends pool worker w's goroutine if the pool is above its target,
// and reports whether it did. w's deque must be empty.
func (p *pool) retire(w *Worker) bool {
	if !p.excess(w) {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.excess(w) {
		return false
	}
	w.retired = true
	p.live.Add(-1)
	p.unlist(func(v *Worker) bool { return v == w })
	if int32(w.index) < p.liveBelow.Load() {
		p.liveBelow.Store(int32(w.index))
	}
	return true
}

// newWorker returns a new Worker, not yet among the victims. Called with mu
// held.
func (p *pool) newWorker() *Worker {
	p.made++
	return &Worker{pool: p, dq: deque.New[task](), park: sched.NewParker(), index: -1,
		rng: p.made*0x9e3779b97f4a7c15 | 1}
}

// list adds w to the victims. Called with mu held; O(victims).
func (p *pool) list(w *Worker) {
	old := *p.victims.Load()
	vs := make([]*Worker, len(old)+1)
	copy(vs, old)
	vs[len(old)] = w
	p.victims.Store(&vs)
}

// unlist takes the workers for which drop reports true off the victims.
// Their deques must be empty, and stay so. Called with mu held;
// O(victims).
func (p *pool) unlist(drop func(*Worker) bool) {
	old := *p.victims.Load()
	vs := make([]*Worker, 0, len(old))
	for _, v := range old {
		if !drop(v) {
			vs = append(vs, v)
		}
	}
	p.victims.Store(&vs)
}

// acquire returns a guest Worker for the calling goroutine.
func (p *pool) acquire() *Worker {
	p.grow()
	p.mu.Lock()
	defer p.mu.Unlock()
	var w *Worker
	if n := len(p.guests); n > 0 {
		w = p.guests[n-1]
		p.guests = p.guests[:n-1]
	} else {
		w = p.newWorker()
		p.list(w)
	}
	return w
}

// release returns a guest. Its deque may still hold Group tasks; workers
// steal them from there. A drop costs O(victims); drops come at least
// GOMAXPROCS releases apart, unless free guests still hold such tasks.
func (p *pool) release(w *Worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.guests = append(p.guests, w)
	if keep := int(p.target.Load()) + 1; len(p.guests) > 2*keep {
		p.dropGuests(keep)
	}
}

// dropGuests drops the oldest free guests whose deques are empty, keeping
// the newest keep, and takes them off the victims. Called with mu held.
func (p *pool) dropGuests(keep int) {
	old := p.guests
	kept := old[:0]
	for i, g := range old {
		if i < len(old)-keep && g.dq.Len() == 0 {
			g.dropped = true
			continue
		}
		kept = append(kept, g)
	}
	clear(old[len(kept):])
	p.guests = kept
	p.unlist(func(v *Worker) bool { return v.dropped })
}

// hasWork reports whether there is a task to find, or a slot of a loop job
// whose seq is above since, as of some instant during the call.
func (p *pool) hasWork(since uint64) bool {
	if p.inject.Len() > 0 || p.loops.Open(since) != nil {
		return true
	}
	for _, v := range *p.victims.Load() {
		if v.dq.Len() > 0 {
			return true
		}
	}
	return false
}

// inject queues t, from outside the pool, and wakes a worker.
func (p *pool) injectTask(t *task) {
	p.grow()
	p.inject.Push(t)
	p.idle.Notify()
}

// Run calls f on the calling goroutine with a Worker handle, so that f can
// fork tasks with Join, Both and Worker.Go that idle pool workers steal, and
// returns when f has returned. Tasks f spawned into a Group with Worker.Go
// may still be running then; wait for them with the Group.
//
// If f panics, Run re-raises the panic as a *PanicError after every task f
// joined has stopped. Run panics if f is nil.
func Run(f func(w *Worker)) {
	checkFunc("Run", "f", f == nil)
	thePool.run("Run", f)
}

// run calls f with a guest Worker of p, as Run describes, for the entry
// point named call.
func (p *pool) run(call string, f func(w *Worker)) {
	w := p.acquire()
	defer p.release(w)
	defer rethrow(call)
	f(w)
}

// rethrow, deferred, re-raises a panic as a *PanicError holding the stack
// of the panic site (or as it is, if it already is one).
func rethrow(call string) {
	if r := recover(); r != nil {
		panic(wrapPanic(call, r))
	}
}
