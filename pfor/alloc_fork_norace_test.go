//go:build !race

// The race detector's sync.Pool drops a random share of what is put in it,
// so allocation counts hold only without it.

package pfor_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// idlePool waits until the task pool has started its workers and one of
// them searches for work or sleeps, so that Do and Join fork to it rather
// than call their functions inline.
func idlePool(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); pfor.TaskWorkers() == 0 || pfor.TaskBusy(); {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s at GOMAXPROCS %d: %d pool workers, busy %v; want one idle",
				runtime.GOMAXPROCS(0), pfor.TaskWorkers(), pfor.TaskBusy())
		}
		pfor.Do(func() {}, func() {}) // grows the pool
		time.Sleep(100 * time.Microsecond)
	}
}

// stealProbe is a pair of functions for a fork: first, run by the caller
// first, waits (up to a bound, as the other may never be stolen) until
// last has run, which it has only if another goroutine stole it.
type stealProbe struct {
	ran    atomic.Bool
	stolen int // calls in which last ran before first returned
}

func (p *stealProbe) first() {
	for start := time.Now(); !p.ran.Load() && time.Since(start) < 100*time.Millisecond; {
		runtime.Gosched()
	}
	if p.ran.Load() {
		p.stolen++
	}
}

func (p *stealProbe) last() { p.ran.Store(true) }

// forkMallocs calls call once to warm up, then runs times, each time once
// a worker of the pool is idle, so that the call forks, and returns the
// heap allocations made meanwhile by any goroutine, the pool's workers
// included, and how many of the calls p saw stolen, which all forked. It
// keeps GOMAXPROCS, where testing.AllocsPerRun sets it to 1, at which the
// pool's workers retire and Do and Join run inline. A call may still run
// inline, if the worker reads as busy at the call (a searcher that yields
// does), and the runtime allocates now and then for a goroutine that
// blocks or for a thread: counted per stolen call and rounded down, as
// AllocsPerRun rounds, these make no whole allocation.
func forkMallocs(t *testing.T, runs int, p *stealProbe, call func()) (mallocs uint64, stolen int) {
	t.Helper()
	idlePool(t)
	p.ran.Store(false)
	call()
	p.stolen = 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		for deadline := time.Now().Add(10 * time.Second); pfor.TaskBusy(); runtime.Gosched() {
			if time.Now().After(deadline) {
				t.Fatalf("after 10 s at GOMAXPROCS %d: no pool worker idle", runtime.GOMAXPROCS(0))
			}
		}
		p.ran.Store(false)
		call()
	}
	runtime.ReadMemStats(&after)
	if p.stolen == 0 {
		t.Fatalf("%d calls at GOMAXPROCS %d with a pool worker idle: no function stolen; want the calls to fork", runs, runtime.GOMAXPROCS(0))
	}
	return after.Mallocs - before.Mallocs, p.stolen
}

// TestForkAllocatesNothing: Do and Join that fork to an idle worker, which
// steals and runs a function, allocate nothing, on the caller or on the
// thief, with the pool's workers started and GOMAXPROCS above 1.
func TestForkAllocatesNothing(t *testing.T) {
	const runs = 200
	procSweepOf(t, []int{2, 4}, func(t *testing.T) {
		nop := func() {}
		for _, k := range []int{2, 3, 64, 1000} {
			var p stealProbe
			fns := make([]func(), k)
			for i := range fns {
				fns[i] = nop
			}
			fns[0], fns[k-1] = p.first, p.last // Do runs fns[0] first and forks the half ending with fns[k-1]
			got, stolen := forkMallocs(t, runs, &p, func() { pfor.Do(fns...) })
			if perCall := got / uint64(stolen); perCall != 0 {
				t.Errorf("Do of %d functions, %d calls, %d stolen: %d allocations, %d per stolen call; want 0", k, runs, stolen, got, perCall)
			}
		}
		var p stealProbe
		first, last := p.first, p.last                                             // method values made once: made in the call, the caller would allocate them
		got, stolen := forkMallocs(t, runs, &p, func() { pfor.Join(last, first) }) // Join runs b first and forks a
		if perCall := got / uint64(stolen); perCall != 0 {
			t.Errorf("Join, %d calls, %d stolen: %d allocations, %d per stolen call; want 0", runs, stolen, got, perCall)
		}
	})
}

// TestDoCopiesOnlyAboveMaxFns: a Do that forks allocates nothing for up to
// 1024 functions, and one copy of them per call for more.
func TestDoCopiesOnlyAboveMaxFns(t *testing.T) {
	const runs = 100
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	nop := func() {}
	for _, tc := range []struct {
		fns     int
		perCall uint64
	}{{1023, 0}, {1024, 0}, {1025, 1}} {
		var p stealProbe
		fns := make([]func(), tc.fns)
		for i := range fns {
			fns[i] = nop
		}
		fns[0], fns[len(fns)-1] = p.first, p.last
		got, stolen := forkMallocs(t, runs, &p, func() { pfor.Do(fns...) })
		if perCall := got / uint64(stolen); perCall != tc.perCall {
			t.Errorf("Do of %d functions, %d calls, %d stolen: %d allocations, %d per stolen call; want %d", tc.fns, runs, stolen, got, perCall, tc.perCall)
		}
	}
}
