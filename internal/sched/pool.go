package sched

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/deque"
)

// A Pool is a set of workers that runs loop jobs and tasks: see the
// package doc. Its methods can be called from any goroutine, except where
// they say otherwise.
type Pool struct {
	victims   atomic.Pointer[[]*Worker] // running workers, guests in use or kept; replaced under mu
	target    atomic.Int32              // GOMAXPROCS-1 as last seen: pool workers at or above it retire
	liveBelow atomic.Int32              // pool workers [0, liveBelow) are running
	live      atomic.Int32              // pool workers whose goroutine runs; changed under mu, with idle's vacancy mark (set while 0)
	inject    Queue[Task]
	idle      Idle
	_         [8]byte // places loops' counters and first entry on one cache line (TestPostedLayout)

	// Loop jobs (see Posted, and Post in post.go).
	loops  Posted
	extras atomic.Int32 // extra helpers running: mirrors nextra for post's fast path

	alloc func() *Worker               // makes a Worker, inside the caller's own type if it has one
	wrap  func(call string, r any) any // wraps a panic recovered from a stolen frame

	mu       sync.Mutex
	workers  []*Worker // pool workers by index, retired ones included
	guests   []*Worker // guests not in use, oldest first
	made     uint64    // Workers made, to seed each one's generator differently
	nextra   int       // extra helpers running
	extraIDs int       // extra helpers ever started: names them in profiles
}

// NewPool returns a pool with no workers yet: they start on first use.
// alloc makes each Worker, so that a caller can keep state of its own
// beside it; wrap wraps a panic of a stolen frame,
// recovered in the deferred function of its thief, into the value that
// frame's owner finds in Task.Panic.
func NewPool(alloc func() *Worker, wrap func(call string, r any) any) *Pool {
	p := &Pool{alloc: alloc, wrap: wrap}
	p.victims.Store(new([]*Worker))
	p.idle.SetVacant(true) // no worker runs yet
	return p
}

// Grow brings the pool to GOMAXPROCS-1 workers.
func (p *Pool) Grow() { p.resize(int32(runtime.GOMAXPROCS(0)) - 1) }

// resize brings the pool to n workers: it starts those missing, and wakes
// those above, which then retire.
func (p *Pool) resize(n int32) {
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
	p.idle.SetVacant(p.live.Load() == 0)
}

// excess reports whether pool worker w is above the pool's target.
func (p *Pool) excess(w *Worker) bool { return int32(w.index) >= p.target.Load() }

// retire ends pool worker w's goroutine if the pool is above its target,
// and reports whether it did. w's deque must be empty.
func (p *Pool) retire(w *Worker) bool {
	if !p.excess(w) {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.excess(w) {
		return false
	}
	w.retired = true
	if p.live.Add(-1) == 0 {
		p.idle.SetVacant(true)
	}
	p.unlist(func(v *Worker) bool { return v == w })
	if int32(w.index) < p.liveBelow.Load() {
		p.liveBelow.Store(int32(w.index))
	}
	return true
}

// newWorker returns a new Worker, not yet among the victims. Called with mu
// held.
func (p *Pool) newWorker() *Worker {
	p.made++
	w := p.alloc()
	w.pool, w.dq, w.park, w.index = p, deque.New[Task](), NewParker(), -1
	w.rng = p.made*0x9e3779b97f4a7c15 | 1
	return w
}

// list adds w to the victims. Called with mu held; O(victims).
func (p *Pool) list(w *Worker) {
	old := *p.victims.Load()
	vs := make([]*Worker, len(old)+1)
	copy(vs, old)
	vs[len(old)] = w
	p.victims.Store(&vs)
}

// unlist takes the workers for which drop reports true off the victims.
// Their deques must be empty, and stay so. Called with mu held;
// O(victims).
func (p *Pool) unlist(drop func(*Worker) bool) {
	old := *p.victims.Load()
	vs := make([]*Worker, 0, len(old))
	for _, v := range old {
		if !drop(v) {
			vs = append(vs, v)
		}
	}
	p.victims.Store(&vs)
}

// Acquire returns a guest Worker for the calling goroutine, which uses it
// until it passes it to Release.
func (p *Pool) Acquire() *Worker {
	p.Grow()
	// No deferred Unlock, here and in Release: nothing between Lock and
	// Unlock calls code that can panic but the allocator, and each call's
	// defer costs more than the rest under the race detector.
	p.mu.Lock()
	var w *Worker
	if n := len(p.guests); n > 0 {
		w = p.guests[n-1]
		p.guests = p.guests[:n-1]
	} else {
		w = p.newWorker()
		p.list(w)
	}
	p.mu.Unlock()
	return w
}

// Release returns a guest from Acquire. Its deque may still hold Group
// tasks; workers steal them from there. A drop costs O(victims); drops come at least
// GOMAXPROCS releases apart, unless free guests still hold such tasks.
func (p *Pool) Release(w *Worker) {
	p.mu.Lock()
	p.guests = append(p.guests, w)
	if keep := int(p.target.Load()) + 1; len(p.guests) > 2*keep {
		p.dropGuests(keep)
	}
	p.mu.Unlock()
}

// dropGuests drops the oldest free guests whose deques are empty, keeping
// the newest keep, and takes them off the victims. Called with mu held.
func (p *Pool) dropGuests(keep int) {
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
func (p *Pool) hasWork(since uint64) bool {
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

// Inject queues t, from outside the pool, and wakes a worker.
func (p *Pool) Inject(t *Task) {
	p.Grow()
	p.inject.Push(t)
	p.idle.Notify()
}

// Victims returns the running workers and the guests in use or kept, as
// of some instant during the call.
func (p *Pool) Victims() []*Worker { return *p.victims.Load() }

// Loops returns the pool's posting table of loop jobs.
func (p *Pool) Loops() *Posted { return &p.loops }

// Helpers reports how many helper goroutines the pool has running: its
// workers and its extra helpers.
func (p *Pool) Helpers() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return int(p.live.Load()) + p.nextra
}

// Live reports how many pool workers have their goroutine running.
func (p *Pool) Live() int { return int(p.live.Load()) }

// Idle returns the pool's idle counts and vacancy mark, set while no pool
// worker runs, in two plain loads that synchronize with nothing (see
// Idle.Peek): Busy reports whether some pool worker ran and no worker or
// guest searched for work or slept (a task forked then would find no
// thief; a worker that yields its thread while it searches does not count
// as searching meanwhile, see Idle.Yield, nor does a sleeper woken that has
// not run yet, see Idle.Peek), and Vacant whether no pool worker ran, and nobody searched or
// slept either. It is a hint, recent but possibly stale, for callers that
// choose between two ways of doing a thing that are both correct (pfor's
// Do and Join: run inline or fork).
func (p *Pool) Idle() IdleState { return p.idle.Peek() }

// IdleCounts reports the searching and sleeping workers (see Idle.Counts).
func (p *Pool) IdleCounts() (searching, sleeping int) { return p.idle.Counts() }
