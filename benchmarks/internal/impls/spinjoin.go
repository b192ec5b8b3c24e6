package impls

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/workload"
)

const (
	// spinJoinYield is how many looks a spinjoin goroutine takes at a counter between two
	// runtime.Gosched calls.
	spinJoinYield = 64
	// spinJoinIdle is how long a spinjoin helper spins without a pass before it parks, as
	// pfor's helpers do: the runner starts every implementation of a workload before timing
	// any, and a helper spinning through the others' repetitions would take a core from them.
	spinJoinIdle = 50 * time.Microsecond
)

// spinJoin is the simplest fork-join with warm helpers: workers-1 helper goroutines spin on
// an atomic generation counter, yielding their P every spinJoinYield looks; a pass stores its
// instance, bumps the counter, runs block 0 on the caller and spins until every helper has
// counted its block done. No stealing, nesting or panics: it is the floor a pool's per-call
// path is measured against. A helper idle for spinJoinIdle parks until the next pass.
type spinJoin struct {
	workers int
	inst    workload.Instance // written by the caller before gen.Add, read by helpers after
	gen     atomic.Uint64     // passes published; the bump publishes inst
	done    atomic.Uint64     // blocks finished by helpers, over all passes
	quit    atomic.Bool       // set before the last bump: helpers exit
	parked  atomic.Int32      // helpers parked or about to park: counted before they look at gen
	mu      sync.Mutex
	wake    sync.Cond // on mu: broadcast by a pass that sees parked helpers
	wg      sync.WaitGroup
}

func startSpinJoin(workers int) (func(workload.Instance), func()) {
	mustPositive("spinjoin", workers)
	s := &spinJoin{workers: workers}
	s.wake.L = &s.mu
	for k := 1; k < workers; k++ {
		s.wg.Go(func() { s.help(k) })
	}
	return s.run, s.stop
}

// help runs block k of every pass until stop.
func (s *spinJoin) help(k int) {
	seen := uint64(0)
	idle := time.Now()
	for i := 1; ; i++ {
		if g := s.gen.Load(); g != seen { // a pass, or the end
			if s.quit.Load() {
				return
			}
			seen = g
			lo, hi := span(s.inst.Len(), k, s.workers)
			s.inst.Chunk(lo, hi)
			s.done.Add(1) // publishes the block's writes to the caller
			i, idle = 0, time.Now()
			continue
		}
		if i%spinJoinYield != 0 {
			continue
		}
		if i%(64*spinJoinYield) == 0 && time.Since(idle) > spinJoinIdle {
			s.mu.Lock()
			s.parked.Add(1) // before the look at gen: a pass after it sees the count
			for s.gen.Load() == seen {
				s.wake.Wait()
			}
			s.parked.Add(-1)
			s.mu.Unlock()
			continue
		}
		runtime.Gosched()
	}
}

func (s *spinJoin) run(inst workload.Instance) {
	s.inst = inst
	g := s.pass()
	lo, hi := span(inst.Len(), 0, s.workers)
	inst.Chunk(lo, hi)
	for i := 1; s.done.Load() != g*uint64(s.workers-1); i++ {
		if i%spinJoinYield == 0 {
			runtime.Gosched()
		}
	}
}

// pass bumps gen, wakes parked helpers and returns the new generation.
func (s *spinJoin) pass() uint64 {
	g := s.gen.Add(1)
	if s.parked.Load() > 0 {
		s.mu.Lock()
		s.wake.Broadcast()
		s.mu.Unlock()
	}
	return g
}

func (s *spinJoin) stop() {
	s.quit.Store(true)
	s.pass()
	s.wg.Wait()
}
