// Package distrib is a fork-join task pool whose workers distribute tasks
// under one of the three schemes of Herlihy and Shavit's "The Art of
// Multiprocessor Programming" (chapter "Futures, Scheduling, and Work
// Distribution"): work stealing, work dealing and work balancing (see
// Policy). Its workers count what they do (see Pool.Stats). It exists for
// benchmarks/casestudy's comparison of the three: stealkit's own task pool
// (pfor.Run, pfor.Both and the rest) only steals, and counts nothing.
//
// The pool forks with Both, which Run's function and the tasks it forks
// call with the Worker they were given, as with pfor.Both. Stealing uses
// stealkit's Chase-Lev deque (internal/deque); dealing and balancing use a
// ring buffer under a mutex (lockedQueue), since other workers add to it
// and move runs of tasks out of it. Idle workers search for a while, then
// sleep under internal/sched's Idle protocol.
package distrib

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/deque"
	"github.com/stealkit/stealkit/internal/sched"
)

// A Pool is a fixed number of worker goroutines that run the tasks forked
// in Run under one Policy. Run may be called from several goroutines at
// once, each taking part as a guest worker while its call lasts. A Pool
// must not be copied.
type Pool struct {
	policy  Policy
	start   time.Time                 // the origin of idle times
	victims atomic.Pointer[[]*Worker] // the pool's workers by index, then the guests; replaced, longer, under mu
	idle    sched.Idle
	stop    atomic.Bool    // set by Close: pool workers end
	exited  sync.WaitGroup // pool workers whose goroutine runs

	mu     sync.Mutex
	active int       // Run calls under way
	closed bool      // Close has begun
	guests []*Worker // guests not in a Run
}

// NewPool starts a pool of n workers under policy pol: n-1 worker
// goroutines, the goroutine in Run making the n-th. It panics if n < 1 or
// pol is unknown. Close the pool to stop its goroutines.
func NewPool(n int, pol Policy) *Pool {
	if n < 1 {
		panic(fmt.Sprintf("distrib: NewPool(%d, %v): fewer than 1 worker", n, pol))
	}
	if pol > Balancing {
		panic(fmt.Sprintf("distrib: NewPool(%d, %v): unknown policy", n, pol))
	}
	p := &Pool{policy: pol, start: time.Now()}
	p.victims.Store(new([]*Worker))
	p.mu.Lock()
	defer p.mu.Unlock()
	for range n - 1 {
		w := p.newWorker(false)
		p.exited.Add(1)
		go w.loop()
	}
	return p
}

// newWorker adds a Worker to the victims, its queue open. Called with mu
// held.
func (p *Pool) newWorker(guest bool) *Worker {
	old := *p.victims.Load()
	w := &Worker{pool: p, park: sched.NewParker(), guest: guest,
		rng: uint64(len(old))*0x9e3779b97f4a7c15 | 1}
	if p.policy == Stealing {
		w.dq = deque.New[task]()
	} else {
		w.q = &lockedQueue{rank: len(old), open: true}
	}
	vs := make([]*Worker, len(old)+1)
	copy(vs, old)
	vs[len(old)] = w
	p.victims.Store(&vs)
	return w
}

// Run calls f on the calling goroutine with a Worker of p, and returns
// when f has returned; the tasks f forks with Both run on p's workers under
// p's policy, and have all finished by then. If f panics, Run re-raises
// the panic as a *pfor.PanicError after every task f forked has stopped.
// Run panics if f is nil or p is closed.
func (p *Pool) Run(f func(w *Worker)) {
	if f == nil {
		panic("distrib: Pool.Run: f is nil")
	}
	w := p.acquire()
	defer p.release(w)
	defer rethrow()
	f(w)
}

// acquire returns a guest Worker for the calling goroutine, counting the
// Run under way.
func (p *Pool) acquire() *Worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		panic("distrib: Pool.Run: the pool is closed")
	}
	p.active++
	if n := len(p.guests); n > 0 {
		w := p.guests[n-1]
		p.guests = p.guests[:n-1]
		if w.q != nil {
			w.q.mu.Lock()
			w.q.open = true
			w.q.mu.Unlock()
		}
		return w
	}
	return p.newWorker(true)
}

// release ends a guest's Run. Its locked queue closes, so that nothing is
// dealt or balanced to it while no goroutine runs its tasks; a task another
// worker dealt to it meanwhile stays there until its owner's Both takes it
// back (see popBack).
func (p *Pool) release(w *Worker) {
	if w.q != nil {
		w.q.mu.Lock()
		w.q.open = false
		w.q.mu.Unlock()
	}
	p.mu.Lock()
	p.active--
	p.guests = append(p.guests, w)
	p.mu.Unlock()
}

// Close stops p's workers and returns when their goroutines have ended.
// Call it once no Run is under way: Close panics if it sees one, and the
// pool stays open. Closing a closed pool does nothing.
func (p *Pool) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	if p.active != 0 {
		p.mu.Unlock()
		panic("distrib: Pool.Close: Run is under way")
	}
	p.closed = true
	p.mu.Unlock()
	p.stop.Store(true) // before the Unparks: a sleeper's last look sees it (see sched.Parker)
	for _, w := range *p.victims.Load() {
		w.park.Unpark()
	}
	p.exited.Wait()
}

// loop is a pool worker's goroutine: it runs tasks until the pool closes.
func (w *Worker) loop() {
	defer w.pool.exited.Done()
	for {
		t := w.pop()
		if t == nil {
			if t = w.search(nil); t == nil {
				return
			}
		}
		w.execute(t)
	}
}

const (
	spinFor     = 50 * time.Microsecond // how long a worker searches for work before it sleeps
	searchYield = 8                     // a searching worker yields every searchYield rounds
)

// search looks for a task under the pool's policy until it finds one,
// which it returns, or done reports true (then nil), counting the time
// spent as idle. done == nil is a pool worker's main loop, which gets nil
// when the pool closes. Every searchYield rounds it yields the processor;
// after spinFor without finding anything it sleeps.
func (w *Worker) search(done func() bool) *task {
	p := w.pool
	stop := func() bool { return done != nil && done() || done == nil && p.stop.Load() }
	w.idleStart()
	defer w.idleStop()
	if stop() {
		return nil
	}
	if t := w.trySteal(); t != nil {
		w.took(t)
		return t
	}
	p.idle.StartSearch()
	var since time.Time
	for round := 1; ; round++ {
		if stop() {
			p.idle.StopSearch()
			return nil
		}
		if t := w.trySteal(); t != nil {
			p.idle.StopSearch()
			w.took(t)
			return t
		}
		if round%searchYield != 0 {
			continue
		}
		if now := time.Now(); since.IsZero() {
			since = now
		} else if now.Sub(since) > spinFor {
			p.idle.Sleep(w.park, func() bool { return stop() || p.hasWork(w) })
			since = time.Time{}
			continue
		}
		runtime.Gosched()
	}
}
