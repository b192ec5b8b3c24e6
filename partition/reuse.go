package partition

import (
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/partproto"
)

// Reuse of runs. A stealing run holds a Range per worker, and each Range
// owns the spans it installs, in its own blocks and in the Ranges it steals
// from; a static run holds a flag per worker; a cursor run is one struct. A
// driver that knows when a run is over (pfor does: every worker has
// returned) calls its Release, and a later Start of the same kind takes it
// back from a pool, Ranges and their spans included, so that a parallel call
// allocates nothing for its run once the pool holds one large enough. A
// released run must not be used again: the next Start hands it out anew.
//
// Why it is safe for the lock-free Ranges: a span's address identifies it
// only while a goroutine may still compare against it, that is while a
// worker of the run may steal or take. Release comes after every worker's
// last call, the pool's Put and Get order it before the next Start, and
// Start reuses every Range of the run (stealrange's Reuse) before any
// worker runs: the Ranges of one run go out of use together, as Reuse
// requires, since workers steal only from the Ranges of their own run.

var stealRuns, staticRuns, cursorRuns sync.Pool

// newStealRun returns a run with workers workers' state, from the pool if
// it holds one with room for them. The caller sets every field.
func newStealRun(workers int) *stealRun {
	words := (workers + 63) / 64
	if r, ok := stealRuns.Get().(*stealRun); ok && cap(r.ws) >= workers {
		r.ws, r.listed = r.ws[:workers], r.listed[:words]
		r.hungry.Store(0)
		r.holding.Store(0)
		r.steals.Store(0)
		r.events.Store(0)
		r.cost.Store(0)
		for i := range r.listed {
			r.listed[i].Store(0)
		}
		return r
	}
	return &stealRun{ws: make([]stealWorker, workers), listed: make([]atomic.Uint64, words)}
}

// Release returns r to the pool for a later Start. The run's driver calls
// it once, after every worker's last call has returned, and uses the run no
// more.
func (r *stealRun) Release() { stealRuns.Put(r) }

// newStaticRun is newStealRun for static runs.
func newStaticRun(workers int) *staticRun {
	if r, ok := staticRuns.Get().(*staticRun); ok && cap(r.done) >= workers {
		r.done = r.done[:workers]
		clear(r.done)
		return r
	}
	return &staticRun{done: make([]bool, workers)}
}

// Release returns r to the pool for a later Start, as stealRun's does.
func (r *staticRun) Release() { staticRuns.Put(r) }

// newCursorRun is newStealRun for cursor runs.
func newCursorRun() *cursorRun {
	if r, ok := cursorRuns.Get().(*cursorRun); ok {
		return r
	}
	return new(cursorRun)
}

// Release returns r to the pool for a later Start, as stealRun's does.
func (r *cursorRun) Release() { cursorRuns.Put(r) }

// The protocol pfor and the simulator find on the runs.
var (
	_ partproto.SplittingRun = (*stealRun)(nil)
	_ partproto.Releaser     = (*stealRun)(nil)
	_ partproto.Releaser     = (*staticRun)(nil)
	_ partproto.Releaser     = (*cursorRun)(nil)
	_ partproto.Adaptive     = stealing{}
)
