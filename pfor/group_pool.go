package pfor

import (
	"context"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/deque"
	"github.com/stealkit/stealkit/internal/sched"
)

// The task pool.
//
// Tasks (Join, Both, Group, Do, Sort) run on a pool of their own, separate
// from the loop pool of Range and friends (pool.go): GOMAXPROCS-1 worker
// goroutines, each with a work-stealing deque (internal/deque), plus the
// goroutine that entered the pool and waits for its work, which takes part
// as a guest worker with a deque of its own: one worker per GOMAXPROCS, as
// in the loop pool, where the caller runs a slot. Tasks submitted from
// outside the pool (Group.Go) go to an injection queue.
//
// A worker runs its own deque newest first; when it is empty it takes from
// the injection queue or steals the oldest task of a random other deque,
// yielding every few rounds; after 50 µs without finding work it sleeps on
// a channel (internal/sched's Idle protocol) until a push or an injection
// wakes it. Idle workers use no CPU.
//
// The pool starts on first use and follows GOMAXPROCS as entry points see
// it: it starts workers when it has grown, and a worker whose index is no
// longer below GOMAXPROCS-1 retires (its goroutine ends) the next time its
// deque is empty, and leaves the victims until it starts again.
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
type taskPool struct {
	victims   atomic.Pointer[[]*Worker] // running workers, guests in use or kept; replaced under mu
	target    atomic.Int32              // GOMAXPROCS-1 as last seen: pool workers at or above it retire
	liveBelow atomic.Int32              // pool workers [0, liveBelow) are running
	live      atomic.Int32              // pool workers whose goroutine runs
	inject    sched.Queue[task]
	idle      sched.Idle

	mu      sync.Mutex
	workers []*Worker // pool workers by index, retired ones included
	guests  []*Worker // guests not in use, oldest first
	made    uint64    // Workers made, to seed each one's generator differently
}

var taskSched = newTaskPool()

func newTaskPool() *taskPool {
	p := new(taskPool)
	p.victims.Store(new([]*Worker))
	return p
}

// grow brings the default pool to GOMAXPROCS-1 workers.
func (p *taskPool) grow() { p.resize(int32(runtime.GOMAXPROCS(0)) - 1) }

// resize brings the pool to n workers: it starts those missing, and wakes
// those above, which then retire.
func (p *taskPool) resize(n int32) {
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
func (p *taskPool) excess(w *Worker) bool { return int32(w.index) >= p.target.Load() }

// retire ends pool worker w's goroutine if the pool is above its target,
// and reports whether it did. w's deque must be empty.
func (p *taskPool) retire(w *Worker) bool {
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
func (p *taskPool) newWorker() *Worker {
	p.made++
	return &Worker{pool: p, dq: deque.New[task](), park: sched.NewParker(), index: -1,
		rng: p.made*0x9e3779b97f4a7c15 | 1}
}

// list adds w to the victims. Called with mu held; O(victims).
func (p *taskPool) list(w *Worker) {
	old := *p.victims.Load()
	vs := make([]*Worker, len(old)+1)
	copy(vs, old)
	vs[len(old)] = w
	p.victims.Store(&vs)
}

// unlist takes the workers for which drop reports true off the victims.
// Their deques must be empty, and stay so. Called with mu held;
// O(victims).
func (p *taskPool) unlist(drop func(*Worker) bool) {
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
func (p *taskPool) acquire() *Worker {
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
func (p *taskPool) release(w *Worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.guests = append(p.guests, w)
	if keep := int(p.target.Load()) + 1; len(p.guests) > 2*keep {
		p.dropGuests(keep)
	}
}

// dropGuests drops the oldest free guests whose deques are empty, keeping
// the newest keep, and takes them off the victims. Called with mu held.
func (p *taskPool) dropGuests(keep int) {
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

// hasWork reports whether there is a task to find, as of some instant
// during the call.
func (p *taskPool) hasWork() bool {
	if p.inject.Len() > 0 {
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
func (p *taskPool) injectTask(t *task) {
	p.grow()
	p.inject.Push(t)
	p.idle.Notify()
}

// labelWorker labels the calling goroutine, pool worker id, for profiles.
func labelWorker(id int) {
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(),
		pprof.Labels("stealkit", "pfor task worker", "worker", strconv.Itoa(id))))
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
	taskSched.run("Run", f)
}

// run calls f with a guest Worker of p, as Run describes, for the entry
// point named call.
func (p *taskPool) run(call string, f func(w *Worker)) {
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
