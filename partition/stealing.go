package partition

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/stealrange"
)

// Stealing returns the work-stealing partitioner with count-based batches:
// each worker owns its static block in a stealrange.Range and takes batches of
// grain = clamp(n/(128*workers), 1, 1024) items from it; when its range is
// exhausted it steals the top quarter of a random victim's remaining items
// (trying every other worker before giving up) and owns the stolen chunk in
// turn, so that it can be stolen from again. Victims are chosen from a
// source seeded with 0; use StealingWith for another seed or a fixed grain.
func Stealing() Partitioner { return StealingWith(StealingOptions{}) }

// Auto returns the default partitioner: Stealing with batches that adapt to
// the cost of items. A worker's first batch is clamp(block/32, 1, 32) items;
// after each batch it measures how long the batch took and sizes the next so
// that it takes about 10 µs (at most twice the previous batch, at least one
// item, at most 1<<16 items). Short batches keep the finish balanced wherever
// the expensive items are; 10 µs keeps the cost of a batch (about 50 ns: a
// clock read and a take) under 1%.
func Auto() Partitioner { return StealingWith(StealingOptions{Adaptive: true}) }

// StealingOptions configure StealingWith.
type StealingOptions struct {
	// Grain is the number of items a worker takes at a time. Zero chooses it:
	// adaptively if Adaptive is set, else as Stealing documents.
	Grain int
	// Adaptive sizes batches from their measured duration (see Auto).
	Adaptive bool
	// Seed seeds victim choice. Runs started with the same seed and driven
	// in the same order hand out the same ranges.
	Seed uint64
	// Clock returns monotonic nanoseconds, which workers read to size
	// adaptive batches and pieces and to tell how long a worker has held its
	// range (with a fixed grain, about once per microsecond of work rather
	// than at every Next); nil uses the process's monotonic clock. A
	// simulator passes its virtual time.
	Clock func() int64
}

// StealingWith returns a work-stealing partitioner configured by o. It
// panics if o.Grain < 0.
func StealingWith(o StealingOptions) Partitioner {
	if o.Grain < 0 {
		panic(fmt.Sprintf("partition: StealingWith: Grain %d is negative", o.Grain))
	}
	if o.Clock == nil {
		o.Clock = monotonic
	}
	return stealing{o}
}

var epoch = time.Now()

func monotonic() int64 { return int64(time.Since(epoch)) }

const (
	pieceBudget   = 4_000  // ns: a piece should take at least pieceBudget/workers (see pieceSize)
	maxPieces     = 16     // pieces per range at most
	targetBatch   = 10_000 // ns an adaptive batch should take
	maxBatch      = 1 << 16
	maxFirstBatch = 32
	clockEvery    = 1_000 // ns of ranges between clock readings, fixed grains (see measure)
	maxSkipped    = 16    // Nexts without a clock reading at most, fixed grains
)

type stealing struct{ o StealingOptions }

func (p stealing) Name() string {
	if p.o.Adaptive && p.o.Grain == 0 {
		return "auto"
	}
	return "stealing"
}

func (p stealing) WithGrain(grain int) Partitioner {
	if grain < 1 {
		panic(fmt.Sprintf("partition: %s.WithGrain(%d): grain must be at least 1", p.Name(), grain))
	}
	p.o.Grain = grain
	return p
}

func (p stealing) Start(lo, hi, workers int) Run {
	checkStart(p.Name(), lo, hi, workers)
	n := size(lo, hi)
	r := &stealRun{ws: make([]stealWorker, workers), clock: p.o.Clock, adaptive: p.o.Adaptive && p.o.Grain == 0, minPiece: pieceBudget / float64(workers)}
	grain := uint64(p.o.Grain)
	if grain == 0 {
		grain = min(max(n/(128*uint64(workers)), 1), 1024)
	}
	for w := range r.ws {
		me := &r.ws[w]
		a, b := block(n, w, workers)
		me.own.Reset(at(lo, a), at(lo, b))
		me.rng = p.o.Seed ^ (uint64(w)+1)*0x9e3779b97f4a7c15
		me.batch = int(grain)
		if r.adaptive {
			me.batch = int(min(max((b-a)/32, 1), maxFirstBatch))
		}
	}
	return r
}

// stealRun is one run of the stealing partitioners. ws[w] is touched by w's
// driver only, except ws[v].own.TrySteal and ws[v].since (read by Idle),
// which any worker uses; hungry is counted by every worker.
type stealRun struct {
	ws       []stealWorker
	clock    func() int64
	adaptive bool
	hungry   atomic.Int32 // workers waiting in Idle for others to give back work
	minPiece float64      // ns a piece should take at least: pieceBudget/workers
}

type stealWorker struct {
	own     stealrange.Range // padded to its own cache lines
	since   atomic.Int64     // last+1 from the Next that returned w's current range; 0 between ranges
	rng     uint64           // xorshift state for victim choice
	batch   int              // items per take
	last    int64            // clock at w's last reading of it (see measure)
	taken   int              // items processed since the previous Next
	pending int              // items processed between the last reading and the previous Next
	skipped int              // Nexts since the last reading that did not read the clock
	perItem float64          // ns per item over the ranges measured last; 0 before the first
	piece   int              // items per piece of the current range (Piece)
	lo      int              // start of the range Next returned last
	stolen  bool             // the current range came from a steal
	waiting bool             // w is counted in hungry
	counts  Counts

	// The fields above the padding are written by w on every Next; keep
	// the next worker's range, which that worker writes on every take, off
	// their cache lines (stealWorkers sit side by side in stealRun.ws).
	_ [128]byte
}

func (r *stealRun) Next(w int) (lo, hi int, ok bool) {
	me := &r.ws[w]
	r.measure(me)
	for {
		if lo, hi, ok := me.own.TryTake(me.batch); ok {
			me.taken, me.lo = hi-lo, lo
			me.piece = pieceSize(hi-lo, me.perItem, r.minPiece)
			if me.waiting {
				me.waiting = false
				r.hungry.Add(-1)
			}
			if s := me.last + 1; me.since.Load() != s { // unchanged while measure skips
				me.since.Store(s)
			}
			return lo, hi, true
		}
		if !r.steal(w) {
			me.taken, me.pending = 0, 0 // the time until the next Next is not the items'
			if me.since.Load() != 0 {
				me.since.Store(0)
			}
			return 0, 0, false
		}
	}
}

func (r *stealRun) Hungry(w int) bool {
	return r.hungry.Load() > 0 && r.clock()-r.ws[w].last > 2*targetBatch
}

func (r *stealRun) GiveBack(w, from int) {
	me := &r.ws[w]
	me.own.GiveBack(from)
	me.taken = from - me.lo // what w processed, for the adaptive batch size
}

func (r *stealRun) Idle(w int) bool {
	me := &r.ws[w]
	now := r.clock()
	for v := range r.ws {
		// Wait only for a worker that has been on its range for long: an
		// ordinary batch ends within the target, and waiting for it costs
		// more than it can return.
		if since := r.ws[v].since.Load(); v != w && since != 0 && now-(since-1) > 2*targetBatch {
			if !me.waiting {
				me.waiting = true
				r.hungry.Add(1)
			}
			return true
		}
	}
	if me.waiting {
		me.waiting = false
		r.hungry.Add(-1)
	}
	return false
}

func (r *stealRun) Piece(w int) int { return r.ws[w].piece }

// measure updates w's cost per item from how long its ranges since its last
// reading of the clock took and, for adaptive runs, sizes its next batch from
// it.
//
// A run with a fixed grain reads the clock only when the ranges since the
// last reading may have taken clockEvery or more, by the cost per item
// measured last, or after maxSkipped Nexts without a reading: a reading costs
// about 40 ns on the project's VM, more than the take itself, and ranges of a
// few cheap items would pay it on every one. The readings serve only to size
// pieces and to tell how long a worker has held its range (Hungry, Idle),
// which the skipped readings make older by about clockEvery. Adaptive runs
// read at every Next: their batches, sized from each reading, last about
// targetBatch, so a reading is a small part of one.
func (r *stealRun) measure(me *stealWorker) {
	me.pending += me.taken
	if !r.adaptive && me.taken > 0 && me.perItem > 0 && me.skipped < maxSkipped &&
		float64(me.pending)*me.perItem < clockEvery {
		me.skipped++
		return
	}
	now := r.clock()
	if me.pending > 0 {
		elapsed := max(now-me.last, 1)
		me.perItem = float64(elapsed) / float64(me.pending)
		if r.adaptive {
			next := int64(me.pending) * targetBatch / elapsed
			me.batch = int(min(max(next, 1), 2*int64(me.batch), maxBatch))
		}
	}
	me.last = now
	me.pending, me.skipped = 0, 0
}

// pieceSize returns the piece of a range of n items that cost perItem ns
// each: n/16, or more items if that would take under minPiece.
//
// Pieces trade the cost of a piece (a call of the body and a check, about
// 10 ns, measured as more in loops of short items) against how long an idle
// worker may wait for a give-back (up to a piece, if the items turn out far
// more expensive than measured). The wait costs every idle worker, so the
// minimum piece shrinks as workers grow: 2 µs with 2 workers, 125 ns with 32.
// A worker's first range (perItem 0: cost not known yet) is one piece: it is
// at most 1/32 of the worker's block and comes at the start of the run, when
// no worker is waiting yet, and so is a range that takes under minPiece in
// all (most ranges of a fixed grain over cheap items), without the division
// that Next would otherwise pay on every one.
func pieceSize(n int, perItem, minPiece float64) int {
	if perItem == 0 || float64(n)*perItem <= minPiece {
		return n
	}
	piece := n / maxPieces
	if float64(piece)*perItem < minPiece {
		piece = int(min(minPiece/perItem+1, float64(n)))
	}
	return max(piece, 1)
}

// steal makes w own a chunk stolen from another worker. It tries every other
// worker, starting at a random one, twice over before it reports that there
// is nothing left to steal.
func (r *stealRun) steal(w int) bool {
	me := &r.ws[w]
	n := len(r.ws)
	for range 2 {
		start := int(me.next() % uint64(n))
		for i := range n {
			v := start + i
			if v >= n {
				v -= n
			}
			if v == w {
				continue
			}
			if lo, hi, ok := r.ws[v].own.TrySteal(); ok {
				me.own.Reset(lo, hi)
				me.stolen = true
				me.counts.Steals++
				return true
			}
			me.counts.FailedSteals++
		}
	}
	return false
}

func (me *stealWorker) next() uint64 {
	x := me.rng
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	me.rng = x
	return x
}

func (r *stealRun) Counts(w int) Counts { return r.ws[w].counts }
func (r *stealRun) Stolen(w int) bool   { return r.ws[w].stolen }
