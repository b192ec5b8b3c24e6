package partition

import "math"

// How a stealing run sizes its batches and pieces from the cost per item
// it measures (see Next and Hungry in stealing.go).

// measure updates w's cost per item from how long its ranges since its last
// reading of the clock took and, for adaptive runs, sizes its next batch from
// it. Next calls it before it takes from w's range, or, if that range is
// empty, once its steal has succeeded: a Next that hands out nothing reads
// no clock, and its ranges since the last reading go unmeasured.
//
// A run with a fixed grain reads the clock only when the ranges since the
// last reading may have taken clockEvery or more, by the cost per item
// measured last, or after maxSkipped Nexts without a reading: a reading can
// cost more than the take itself, and ranges of a few cheap items would pay
// it on every one. The readings serve only to size
// pieces and to tell how long a worker has held its range (Hungry, Idle),
// which the skipped readings make older by about clockEvery. Adaptive runs
// read at every Next that hands out a range: their batches, sized from each reading, last about
// targetBatch, so a reading is a small part of one.
func (r *stealRun) measure(me *stealWorker) {
	me.pending += me.taken
	// A seeded worker (see seed) has a cost but no reading yet: it skips
	// its first reading as it skips those after cheap ranges.
	if !r.adaptive && (me.taken > 0 || !me.timed) && me.perItem > 0 &&
		me.skipped < maxSkipped && float64(me.pending)*me.perItem < clockEvery {
		me.skipped++
		return
	}
	now := r.clock()
	if me.pending > 0 && me.timed { // else a first reading: the ranges before go untimed
		elapsed := max(now-me.last, 1)
		me.perItem = float64(elapsed) / float64(me.pending)
		if r.sized && r.cost.Load() == 0 {
			// The run's first measurement: the workers to come start at
			// it (see seed).
			r.cost.Store(math.Float64bits(me.perItem))
		}
		if r.adaptive {
			me.batch = nextBatch(me.batch, me.pending, elapsed, me.own.Remaining())
			if me.gave {
				me.batch = 1 // the range cost more than measured: measure again
				me.gave = false
			} else if r.crowd > 0 && r.steals.Load()-me.seen >= r.crowd {
				// As many steals as a quarter of the workers during the
				// batch: work runs out elsewhere, so hide no more than a
				// piece from the thieves (see Auto's tuning).
				me.batch = min(me.batch, int(maxPieceTime/me.perItem)+1)
			}
		}
	}
	if !me.timed {
		me.timed, me.first = true, now
	}
	me.last = now
	me.pending, me.skipped = 0, 0
}

// nextBatch returns an adaptive worker's next batch, after its last batch
// of batch items, of which it processed done items in elapsed ns, with rest
// items left in its range.
//
// The target is targetBatch of work at the measured cost, which keeps a
// batch's own cost (a clock reading and a take) small beside its items;
// pieces split it where others wait. The other bounds make the sizing safe
// where the measurement misleads:
//   - maxGrowth times the last batch at most: a batch extrapolates at most
//     that far from what was measured, so that one measurement of a few
//     items does not size a long batch. What a batch hides from thieves is
//     bounded by its pieces and the give-back, not by this; growing 2x at a
//     time took a short loop's share (a few microseconds a worker) five or
//     six batches to cover, a take and a clock reading each.
//   - a quarter of the last batch at least: one measurement that a
//     preemption inflated (a worker descheduled for milliseconds mid-batch)
//     shrinks the batch 4x, not to one item, and the next measurement
//     restores it. A real rise in cost is bounded by the give-back instead:
//     a worker that holds a dear batch while others wait hands the rest back.
//
// Where targetBatch at the measured cost covers the rest, the batch is the
// rest, however far that extrapolates: the growth bound would cut it into
// a batch and a last one, a take and a clock reading more, where a worker's
// share is a few microseconds (a short loop's, 1,000 items of about 13 ns
// on 2 workers: 14 items, then 486, rather than 14, 112 and 374). What the
// rest hides is bounded by its pieces and the give-back, as for any batch.
//
// A batch is not bounded by what its worker's range has left: the batch
// that first reaches far dearer items (the tail of a loop, a stolen chunk
// of them) hides them from thieves only until a thief finds nothing and
// waits, steals from the worker's range or, where the batch took all of
// it, steals anywhere, and then only for a piece, whose items pieceSize
// bounds by the worker's share of the loop. Halving the batch towards the
// end of each range cost a take and a clock reading for each halving,
// which loops of a few microseconds a worker (tiny ones, many workers)
// felt.
func nextBatch(batch, done int, elapsed int64, rest int) int {
	next := int64(done) * targetBatch / elapsed
	if rest <= maxBatch && next >= int64(rest) {
		return max(rest, 1) // thieves may have emptied the range since Next looked
	}
	next = max(next, int64(batch/4))
	return int(max(min(next, maxGrowth*int64(batch), maxBatch), 1))
}

// pieceSize returns the piece of a range of n items that cost perItem ns
// each: as many items as take maxPieceTime, but no more than maxPiece, and
// at least as many as take minPiece; if the cost is not known yet,
// n/min(workers, 16).
//
// Pieces trade the cost of a piece (a call of the body and a check, tens of
// nanoseconds in loops of short items) against how long an idle worker may
// wait for a give-back: up to a piece, if the items turn out far more
// expensive than measured. A piece is sized in time, not as a part of its
// range, so that its call stays a small part of it however short the
// batches; maxPieceTime bounds the wait where the items cost what was
// measured. maxPiece bounds it where they do not: a piece sized from cheap
// items that reaches the loop's dearest ones holds at most 1/pieceShare of
// a worker's share of the items, so that at most that part of its share
// waits in it, however dear, while the rest is given back. With many
// workers the share is small and this bound, not the time, sizes the
// pieces. The wait costs every idle worker, so minPiece, the floor that
// keeps a piece's call small beside it, shrinks as workers grow.
// A worker's first range (perItem 0: cost not known yet; Stealing's workers
// that start after another has measured start at its cost, see seed) is
// at most maxFirstBatch items, or 1/32 of its block if that is fewer
// (Auto), and comes at the start of the run, when no worker waits yet; but
// with many workers the block is a few hundred items or fewer, a worker
// whose first items are the loop's dearest holds them while the others
// finish, and each of them is a larger part of the run: so the more workers,
// the smaller its pieces. A range that takes under minPiece in all (most
// ranges of a fixed grain over cheap items) is one piece, without the
// divisions that Next would otherwise pay on every one.
func pieceSize(n int, perItem, minPiece float64, maxPiece uint64, workers int) int {
	if perItem == 0 {
		return max(n/min(workers, maxPieces), 1)
	}
	if float64(n)*perItem <= minPiece {
		return n
	}
	piece := max(min(maxPieceTime/perItem+1, float64(maxPiece)), minPiece/perItem+1)
	return int(min(piece, float64(n)))
}
