package partition

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/monotime"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/stealrange"
)

// Stealing returns the work-stealing partitioner with count-based batches:
// each worker owns its static block in a stealrange.Range and takes batches
// from it; when its range is exhausted it steals the top quarter of another
// worker's remaining items and owns the stolen chunk in turn, so that it can
// be stolen from again. Only a worker that has called Next can be stolen
// from: until then its block is its own, unless a worker that has run for
// a long while (a fraction of a millisecond) finds nothing else to steal.
//
// Batches scale with the call. A worker takes each range it comes to own
// (its block, a stolen chunk, or what is left of its range after it gives
// part of a batch back) in batches of about 1/workers of that range, so
// that on even work a worker takes its block in about workers batches
// however many items the call has, and the batches shrink where thieves
// are at work.
//
// Victims are chosen by a pseudo-random source seeded with 0, so a run that
// one goroutine drives, calling Next in the same order, is the same every
// time. StealingWith sets a fixed grain instead of these batches.
func Stealing() Partitioner {
	// A thief tries up to maxProbes of the workers listed as holding items,
	// from a random one on. Two bounds apply to a worker's block alone: its
	// first batch is at most maxFirstBatch items, so that their cost is
	// measured before the larger batches, which pfor runs in pieces sized
	// from it, unless another worker of the run has measured a cost
	// already (see seed); and its batches are at least
	// 1/(pieceShare*workers) of the call's items, so that many workers on a
	// call of cheap items do not take a few items at a time.
	return StealingWith(StealingOptions{})
}

// Auto returns the default partitioner: Stealing with batches sized from
// the measured cost of items. Each worker starts on its static block, as
// with Static, and takes it in batches that grow while its items are cheap
// and shrink when they turn dear, or when many of the others have run out
// of work; a worker that runs dry steals from the others. Where the run's
// driver processes each range in pieces (pfor does), a worker that holds a
// range while others wait for work gives the rest of it back to them.
// Every index is handed out exactly once; which worker gets which depends
// on the timing. Its workers read the monotonic clock to measure their
// batches. Use Auto when the cost of items varies or is not known; see the
// package doc for when Static fits better.
func Auto() Partitioner { return StealingWith(StealingOptions{Adaptive: true}) }

// Auto's tuning. A worker's first batch is clamp(block/32, 1, 32) items,
// rounded down to a multiple of min(workers, 16) if it is more, processed in
// pieces of 1/min(workers, 16) of it (one item at least); after each batch it
// sizes the next to take about targetBatch at the cost per item it measured,
// but never more than maxGrowth times the previous batch and never less than a
// quarter of it, or takes the rest of its range if that would take
// targetBatch or less, and processes it in pieces of about maxPieceTime, or of
// 1/pieceShare of its share of the items if that is fewer; after a give-back
// or a steal it starts again from one item, and after a batch during which
// there were workers/4 steals or more (with four workers or more) its next
// takes maxPieceTime at most. Workers that find nothing to steal keep polling
// while any worker holds more of its range than the piece in progress, and a
// worker that has held its range for over minHold while others wait or steal
// from its range gives the rest back to them, if the rest would take over
// minHold at the rate its range has run at, where the run's driver processes
// ranges in pieces.
//
// Why that holds when a measurement is wrong:
//   - At scale: a piece is sized in time, so its call stays a small part of
//     it, but holds at most a small part of its worker's share of the items.
//     A batch sized from cheap items that reaches dear ones hides only the
//     piece in progress: idle workers keep looking while any worker holds
//     more than the piece in progress, try only the workers listed as
//     holding items, and the holder gives the rest back when its piece ends.
//     Near the end of a loop a worker's share is a few batches: once many
//     workers steal, a worker takes a piece at a time and leaves the rest
//     of its range to them, where a batch would hide it until its pieces
//     end one by one.
//   - Under preemption: a worker descheduled mid-batch measures its items as
//     dear; that shrinks its next batch 4x at most, the next measurement
//     restores it, and what it held while away is given back to the others
//     as soon as it runs again. A worker kept from its first Next (a
//     helper that comes late, or the caller) does not keep its block from
//     the others past lateStart (see stealLate).

// StealingOptions configure StealingWith. The zero value makes Stealing's
// partitioner, and {Adaptive: true} Auto's.
type StealingOptions struct {
	// Grain, if positive, is the number of items a worker takes at a time:
	// every range a run's Next returns has at most Grain items, and the
	// batches neither adapt nor scale with the call. Zero chooses them:
	// adaptively if Adaptive is set, else as Stealing documents.
	Grain int
	// Adaptive sizes batches from their measured duration, as Auto does;
	// it has no effect with a positive Grain.
	Adaptive bool
}

// StealingWith returns a work-stealing partitioner configured by o. It
// panics if o.Grain < 0.
func StealingWith(o StealingOptions) Partitioner {
	return newStealing(partproto.Options{Grain: o.Grain, Adaptive: o.Adaptive})
}

func init() {
	partproto.Stealing = func(o partproto.Options) any { return newStealing(o) }
}

func newStealing(o partproto.Options) stealing {
	if o.Grain < 0 {
		panic(fmt.Sprintf("partition: StealingWith: Grain %d is negative", o.Grain))
	}
	if o.Clock == nil {
		o.Clock = monotime.Now
	}
	return stealing{o}
}

const (
	pieceBudget   = 4_000            // ns: a piece should take at least pieceBudget/workers (see pieceSize)
	maxPieceTime  = 2_000            // ns a piece should take at most, unless minPiece is more
	pieceShare    = 96               // a piece holds at most 1/pieceShare of a worker's share of items
	maxPieces     = 16               // pieces of a worker's first range at most
	targetBatch   = 10_000           // ns an adaptive batch should take
	minHold       = maxPieceTime / 2 // ns a range is held before a give-back (see Hungry)
	maxBatch      = 1 << 16
	maxGrowth     = 8     // times the last batch that an adaptive batch grows to at most
	maxFirstBatch = 32    // items of a worker's first batch at most, unless a grain is set
	clockEvery    = 1_000 // ns of ranges between clock readings, fixed grains (see measure)
	maxSkipped    = 16    // Nexts without a clock reading at most, fixed grains
	maxProbes     = 4     // victims a failed take tries at most (see steal)
)

type stealing struct{ o partproto.Options }

func (p stealing) Name() string {
	if p.o.Adaptive && p.o.Grain == 0 {
		return "auto"
	}
	return "stealing"
}

// Adapts reports whether p's batches are its own to size (partproto.Adaptive).
func (p stealing) Adapts() bool { return p.o.Adaptive && p.o.Grain == 0 }

func (p stealing) WithGrain(grain int) Partitioner {
	if grain < 1 {
		panic(fmt.Sprintf("partition: %s.WithGrain(%d): grain must be at least 1", p.call(), grain))
	}
	p.o.Grain = grain
	return p
}

func (p stealing) Start(lo, hi, workers int) Run {
	p.checkStart(lo, hi, workers)
	n := size(lo, hi)
	r := newStealRun(workers)
	r.clock, r.adaptive = p.o.Clock, p.Adapts()
	r.minPiece, r.probes = pieceBudget/float64(workers), min(workers-1, maxProbes)
	r.crowd = int64(workers / 4)
	r.maxPiece = max(n/(pieceShare*uint64(workers)), 1)
	r.sized = p.o.Grain == 0 && !r.adaptive
	for w := range r.ws {
		me := &r.ws[w]
		a, b := block(n, w, workers)
		me.own.Reuse(at(lo, a), at(lo, b))
		me.workerState = workerState{rng: p.o.Seed ^ (uint64(w)+1)*0x9e3779b97f4a7c15, batch: p.o.Grain, grain: p.o.Grain}
		me.begun.Store(false)
		switch {
		case r.sized:
			// No fewer items than a piece may hold: with many workers, 1/workers
			// of a block is a few items, and a take for each.
			me.grain = max(r.part(int(b-a)), int(r.maxPiece))
			me.batch = min(me.grain, maxFirstBatch)
		case r.adaptive:
			me.batch = int(min(max((b-a)/32, 1), maxFirstBatch))
			if k := min(workers, maxPieces); me.batch > k {
				// Whole pieces (see pieceSize): 15 items on 2 workers would
				// be pieces of 7, 7 and 1, a call of the body and a look
				// at the others for one item.
				me.batch -= me.batch % k
			}
		}
		// w is listed at its first Next, not here: a driver that runs the
		// slot of a worker that has not started (pfor's caller, for a helper
		// that has not come) takes that block in a few batches as its owner,
		// where stealing it would take a quarter at a time. A worker that
		// has run for lateStart steals from it all the same (see stealLate).
	}
	return r
}

// stealRun is one run of the stealing partitioners. ws[w] is touched by w's
// driver only, except ws[v].own, which any worker steals from; hungry and
// holding are counted by every worker.
type stealRun struct {
	ws       []stealWorker
	clock    func() int64
	adaptive bool
	sized    bool    // batches are a part of each range (Stealing with no grain)
	minPiece float64 // ns a piece should take at least: pieceBudget/workers
	maxPiece uint64  // items a piece holds at most, unless minPiece: n/(pieceShare*workers)
	probes   int     // victims a failed take tries: min(workers-1, maxProbes)
	crowd    int64   // steals during a batch that cap the next (see measure): workers/4, 0 for none

	// Counted by every worker, read at every piece (hungry) and poll
	// (holding): off the read-only fields' line.
	_       [64]byte
	hungry  atomic.Int32  // workers waiting in Idle for others to give back work
	holding atomic.Int32  // workers holding pieces they may give back (see holds)
	steals  atomic.Int64  // successful steals in the run (see Hungry)
	events  atomic.Uint64 // steals and starts of a wait in Idle, each added after steals or hungry (see Quiet)
	cost    atomic.Uint64 // a sized run's first measured ns per item, float64 bits; 0 before (see seed)

	// listed has bit w%64 of word w/64 set for the workers worth a steal
	// attempt. Worker w sets its bit when its range gains items (a
	// give-back) and when its Next leaves items in its range beyond the
	// batch, and clears it when its Next leaves none; a thief clears it when
	// it finds nothing to steal from w (see unlist). A hint: a listed worker
	// may have nothing left to steal by the time a thief tries it, and a
	// worker that is not listed has nothing stealable, but for the moment
	// between a change of its range and its listing, and but for a worker
	// that has not called Next yet, whose block no thief takes (see Start).
	listed []atomic.Uint64
}

type stealWorker struct {
	own   stealrange.Range // padded to its own cache lines
	begun atomic.Bool      // w has called Next (see stealLate)
	workerState

	// The fields above the padding are written by w on every Next; keep
	// the next worker's range, which that worker writes on every take, off
	// their cache lines (stealWorkers sit side by side in stealRun.ws).
	_ [128]byte
}

// workerState is what Start sets anew for each worker of a run; own keeps
// the spans it has allocated from one run to the next (see newStealRun).
type workerState struct {
	rng     uint64  // xorshift state for victim choice
	batch   int     // items per take
	grain   int     // items per take after the next, unless adaptive (see part)
	last    int64   // clock at w's last reading of it (see measure)
	taken   int     // items processed since the previous Next
	pending int     // items processed between the last reading and the previous Next
	skipped int     // Nexts since the last reading that did not read the clock
	perItem float64 // ns per item over the ranges measured last; 0 before the first
	piece   int     // items per piece of the current range (Piece)
	lo, hi  int     // the range Next returned last
	left    int     // what w's range held above that range when Next returned it
	stolen  bool    // the current range came from a steal
	waiting bool    // w is counted in hungry
	holding bool    // w is counted in holding
	gave    bool    // w gave back part of its last range
	timed   bool    // w has read the clock: first is set
	first   int64   // clock at w's first reading of it (see stealLate)
	started bool    // w has called Next: its begun is set
	allOn   bool    // every worker had called Next when w last looked (see stealLate)
	seen    int64   // steals at w's last take (see Hungry and measure)
	calm    uint64  // events at w's last take, read before seen (see Quiet)
	quiet   bool    // no worker waited at w's last take: Quiet may return calm
	counts  partproto.Counts
}

func (r *stealRun) Next(w int) (lo, hi int, ok bool) {
	me := r.worker(w, "Next")
	if !me.started {
		me.started = true
		me.begun.Store(true)
		if r.sized {
			r.seed(me)
		}
	}
	// An empty range stays empty until w gives back or steals (thieves only
	// take from it): then w measures only if its steal succeeds, so that a
	// Next that finds nothing (the last of each worker's run, and every poll
	// of an idle one) reads no clock.
	measured := me.own.Remaining() > 0
	if measured {
		r.measure(me)
	}
	for {
		// measured: w's range held items, or w has just stolen some. A take
		// from an empty range fails, so it is skipped: only thieves change
		// that range until w steals, and they only take from it (w takes
		// with TryTake alone, which reserves nothing ahead).
		if measured {
			if lo, hi, ok := me.own.TryTake(me.batch); ok {
				if !r.adaptive {
					me.batch = me.grain // a sized run's first batch is over
				}
				me.taken, me.lo, me.hi, me.left = hi-lo, lo, hi, me.own.Remaining()
				me.piece = pieceSize(hi-lo, me.perItem, r.minPiece, r.maxPiece, len(r.ws))
				if me.waiting {
					me.waiting = false
					r.hungry.Add(-1)
				}
				r.holds(me, hi-lo > me.piece)
				r.list(w, me.left > 0)
				// events before hungry and steals, which are added to
				// before it: while events holds calm, no worker has
				// started to wait and none has stolen since (see Quiet).
				me.calm = r.events.Load()
				me.quiet = r.hungry.Load() == 0
				me.seen = r.steals.Load()
				return lo, hi, true
			}
		}
		r.list(w, false)
		if (!r.others(w) || !r.steal(w, measured)) && !r.stealLate(w, measured) {
			me.taken, me.pending = 0, 0 // the time until the next Next is not the items'
			r.holds(me, false)
			return 0, 0, false
		}
		measured = true
	}
}

// seed starts a worker of a sized run that comes after another worker has
// measured its first batch (the cost in r.cost) at that cost, with a batch
// of its grain, skipping the small first batch whose measurement would size
// its pieces: its pieces are sized from the other worker's measurement
// instead. It reads no clock at its first Next either: its first reading
// comes where a worker's reading after a cheap range would (see measure),
// or at its first give-back check (see giveBack), which starts timing its
// range then instead of giving back; its readings correct the cost from
// its second one on. A driver that runs a slot whose worker has not come
// (pfor's caller, after its own) then takes that block in the same
// batches as the others, where a first batch of maxFirstBatch items would
// cost a take, two clock readings and its pieces more. What a wrong cost
// risks is what it risks at any worker's second batch, sized from its
// first: its pieces, sized from cheaper items than they hold, hide the
// dearer ones until each ends (see pieceSize).
func (r *stealRun) seed(me *stealWorker) {
	if c := r.cost.Load(); c != 0 {
		me.perItem = math.Float64frombits(c)
		me.batch = me.grain
	}
}

// Hungry reports whether w has held its range for over minHold while
// another worker waits in Idle or has stolen from w's range since w's Next
// (the thieves found work there, and what w's batch holds is hidden from
// them), or, where w's Next took all that its range held, while a worker
// has stolen from any range since: thieves cannot steal from w's empty
// range, and without that a batch that reached the loop's dearest items
// would hide them until a worker waits, which with many thieves busy
// elsewhere is near the end of the loop. Only then does it read the clock. It gives back only a rest that
// would take over minHold at the rate w's range has run at so far: a
// cheaper rest costs a waiting worker less than the give-back costs both
// (a take for each and batches that start again from one item), as at the
// end of an even loop, where every holder's last batch would be given back
// and taken again one small batch at a time.
//
// minHold is a small part of a batch. A batch is sized for targetBatch so
// that its take and its clock reading are a small part of it, not so that
// the others wait for it: with many workers, a worker's share of a loop is
// a few batches, and one that holds a batch for most of targetBatch while
// the others wait costs each of them that long (the last batches of a
// triangular loop, the dearest). minHold only keeps a worker from giving
// back a range it has just taken, which the others would steal in turn. It
// is half of maxPieceTime, so that a piece that took most of maxPieceTime
// is held long enough: a worker whose pieces are one dear item each (the
// end of a triangular loop) gives back after its first piece, not its
// second, while pieces of cheap items still hold the range for several.
//
// Once the rest is one piece, and when it keeps a rest not worth giving
// back, w no longer counts as holding pieces to give back, so that the
// workers in Idle stop waiting for it (see holds): whether or not a worker
// waits yet, so that one whose Next finds nothing at the end of an even
// loop, a moment before the others, does not wait for their last pieces.
func (r *stealRun) Hungry(w, next int) bool {
	me := r.worker(w, "Hungry")
	if me.hi-next <= me.piece {
		r.holds(me, false) // the last piece: nothing to give back
	}
	if r.hungry.Load() == 0 { // no one waits
		// Every steal counts in steals once it has taken its chunk, so
		// steals unchanged since w's Next means that no one has stolen
		// from any range since, w's included: one load where w's range
		// takes two and a compare with its end.
		if r.steals.Load() == me.seen {
			return false
		}
		if me.left > 0 && me.own.Remaining() >= me.left {
			return false // others stole, but not from w
		}
	}
	return r.giveBack(me, next)
}

// giveBack is Hungry for a worker that others wait for or steal from:
// called once a piece at most, it reads the clock, which the check above
// it leaves out of every piece that no one waits for.
func (r *stealRun) giveBack(me *stealWorker, next int) bool {
	rest := me.hi - next
	if !me.timed {
		// A seeded worker that has not read the clock yet (see seed): time
		// its range from here, and count in its next measurement only the
		// items after [lo, next), as if it had read the clock at a Next.
		now := r.clock()
		me.timed, me.first, me.last = true, now, now
		me.pending, me.skipped = -(next - me.lo), 0
		return false
	}
	// held is how long w has processed [lo, next) for, or longer where a
	// fixed grain skipped the clock at Next (see measure): the rest's cost,
	// (hi-next) items at that rate, errs towards a give-back.
	held := r.clock() - me.last
	worth := int64(rest)*held > minHold*int64(next-me.lo)
	if held > minHold && worth {
		return true
	}
	if !worth {
		r.holds(me, false)
	}
	return false
}

// holds counts w in holding if on, else not, unless it is so already.
// holding counts the workers that hold more than a piece of their range
// still to process: those that may give part of it back, for which the
// workers in Idle wait. A worker on its last piece, or whose range is one
// piece, has nothing to give back; its own range, if it holds more, is
// listed, and the thieves take from it without waiting.
func (r *stealRun) holds(me *stealWorker, on bool) {
	if me.holding == on {
		return
	}
	me.holding = on
	if on {
		r.holding.Add(1)
	} else {
		r.holding.Add(-1)
	}
}

func (r *stealRun) GiveBack(w, from int) {
	me := r.worker(w, "GiveBack")
	me.own.GiveBack(from)
	me.taken = from - me.lo // what w processed, for the adaptive batch size
	me.gave = true
	if r.sized { // a batch as large as before would take back what the thieves are to get
		me.grain = r.part(me.own.Remaining())
		me.batch = me.grain
	}
	r.list(w, true)
}

// list sets w's bit in listed if on, else clears it, unless it is so
// already (a load of the word, where an Or or And would move its line).
func (r *stealRun) list(w int, on bool) {
	word, bit := &r.listed[w/64], uint64(1)<<(w%64)
	switch set := word.Load()&bit != 0; {
	case on && !set:
		word.Or(bit)
	case !on && set:
		word.And(^bit)
	}
}

// unlist clears v's bit for a thief that found nothing to steal from v. If
// v's owner gave back or reset its range meanwhile and listed it again, the
// second look sees what it published before listing, and lists v again.
func (r *stealRun) unlist(v int) {
	bit := uint64(1) << (v % 64)
	r.listed[v/64].And(^bit)
	if r.ws[v].own.Stealable() > 0 {
		r.listed[v/64].Or(bit)
	}
}

// Idle reports whether another worker holds more than a piece of its range
// still to process, which it may give back part of (see holds). An idle
// worker that stopped while such ranges are held would leave
// the rest of them to their holders: with many workers, the ranges that the
// dearest items sit in, taken before anyone was idle.
func (r *stealRun) Idle(w int) bool {
	me := r.worker(w, "Idle")
	if r.holding.Load() > 0 { // w is not holding: its Next just failed
		if !me.waiting {
			me.waiting = true
			r.hungry.Add(1)
			r.events.Add(1) // after hungry (see Quiet)
		}
		return true
	}
	if me.waiting {
		me.waiting = false
		r.hungry.Add(-1)
	}
	return false
}

func (r *stealRun) Piece(w int) int { return r.worker(w, "Piece").piece }

// Quiet returns the run's events and their count at w's last take, unless
// a worker waited then. While events holds that count, no worker has
// started to wait since and none has stolen (their adds to events follow
// those to hungry and steals, and w read events first), so Hungry, away
// from the range's last piece, finds hungry at 0 and steals at w's seen
// and reports false. A wait or a steal whose add to events has not come
// yet goes unseen for as long as a Hungry called just before it would.
func (r *stealRun) Quiet(w int) (*atomic.Uint64, uint64) {
	me := r.worker(w, "Quiet")
	if !me.quiet {
		return nil, 0
	}
	return &r.events, me.calm
}

// part returns the batch of a sized run for a range of n items that a
// worker comes to own: 1/workers of it.
//
// Batches of a fixed part of the call (a grain chosen from n and workers
// at Start) cost either the short calls or the balance: small enough that
// a batch of dear items hidden from thieves at the end costs little, they
// are hundreds of takes on a call of a few microseconds; large enough for
// such calls, a thief that steals a chunk or a worker that gives part of a
// batch back takes what it got in one batch again, hiding it from the idle
// workers it was meant for. A part of the range does neither: a block is
// a few batches, and each steal or give-back cuts the batches of what it
// moved. The more workers, the more of them may share a range at the end,
// hence 1/workers.
func (r *stealRun) part(n int) int { return max(n/len(r.ws), 1) }

func (r *stealRun) Counts(w int) partproto.Counts { return r.worker(w, "Counts").counts }
func (r *stealRun) Stolen(w int) bool             { return r.worker(w, "Stolen").stolen }

// worker returns w's state, for a call of r's method call; it panics if w
// is not one of r's workers.
func (r *stealRun) worker(w int, call string) *stealWorker {
	if uint(w) >= uint(len(r.ws)) {
		panic(r.badWorker(call, w))
	}
	return &r.ws[w]
}

// badWorker is the package's badWorker for r.
//
//go:noinline
func (r *stealRun) badWorker(call string, w int) string {
	name := "stealing"
	if r.adaptive {
		name = "auto"
	}
	return badWorker(name, len(r.ws), call, w)
}
