package simulate

import (
	"slices"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// callSample is what a call trial times on a workload: a sample of its items, as many as take
// about callPass in one call (at least one), and the drained cost of the callerRun's take.
// Sizing it and timing the take take longer than a trial, so a Calibrator makes them once and
// a trial next to each repetition (see Calibrator.CallTrial).
type callSample struct {
	inst  workload.Instance
	items int
	take  float64 // ns
	now   func() time.Time
}

func newCallSample(inst workload.Instance) *callSample {
	defer inst.Reset()
	n := inst.Len()
	items := min(n, 64)
	for items < n {
		t := time.Now()
		inst.Chunk(0, items)
		if time.Since(t) >= callPass {
			break
		}
		items = min(n, 2*items)
	}
	// The passes read time.Now; the tests give a clock of their own.
	s := &callSample{inst: inst, items: items, now: time.Now}
	if items > 0 {
		// The take, drained as the partitioners' takes are (see drain).
		s.take = best(func() (time.Duration, float64) { return drain(callerOnly{1}, items, 1) })
	}
	return s
}

// trial makes callRounds rounds over the sample and returns the call figure (see
// Calibrator.CallTrial).
func (s *callSample) trial() float64 {
	if s.items == 0 {
		return 0
	}
	return s.rounds(func(grain int) partition.Partitioner { return callerOnly{grain} }, s.take)
}

// pieceTrial makes callRounds rounds over the sample and returns the piece figure (see
// Calibrator.PieceTrial).
func (s *callSample) pieceTrial() float64 {
	if s.items == 0 {
		return 0
	}
	return s.rounds(func(piece int) partition.Partitioner { return callerPieces{piece} }, 0)
}

// rounds makes callRounds rounds of two 2-worker pfor.Chunks calls over the sample, with
// p(1) and p(s.items), alternating which comes first, and returns excessOver of the rounds'
// differences per item, less sub.
func (s *callSample) rounds(p func(int) partition.Partitioner, sub float64) float64 {
	defer s.inst.Reset()
	body := s.inst.Chunk // a function value, as pfor's body
	pass := func(grain int) time.Duration {
		t := s.now()
		pfor.Chunks(0, s.items, body, pfor.WithWorkers(2), pfor.WithPartitioner(p(grain)))
		return s.now().Sub(t)
	}
	figures := make([]float64, 0, callRounds)
	for r := range callRounds {
		var a, b time.Duration
		if r%2 == 0 {
			a, b = pass(1), pass(s.items)
		} else {
			b, a = pass(s.items), pass(1)
		}
		figures = append(figures, float64((a-b).Nanoseconds())/float64(s.items)-sub)
	}
	return excessOver(figures, 0)
}

// CallTrial makes one trial of what a range costs beyond its items and its take, and returns
// it in nanoseconds; the workload's Machine.CallNs is the median of the trials (see CallNs).
// The figure holds what pfor does around each range (its checks for a stop and for
// sleeping workers, the call of the body through its wrapper), the call itself, and what the
// take's synchronization costs the body's work around it. One goroutine runs a sample of the
// items through real 2-worker pfor.Chunks calls whose run hands the caller's slot every item
// (the helper's slot gets none, see callerRun): once as one range and once as a range per
// item, each taken by an atomic add as a take is. callRounds rounds alternate which comes
// first; the figure of a round is the difference over the items, less the drained cost of
// the callerRun's take (which the model charges as the partitioner's take). It counts, as
// RestartNs does, if at least three quarters of the rounds found the ranges dearer (see
// excessOver), and is 0 otherwise.
//
// A range costs more than the jump into the body: the loop over a range of a few items ends
// in a branch the predictor misses, the work of the next range does not start until the call
// returns and the take's atomic operation has drained the stores before it, and pfor checks
// the job between ranges. How much of that the processor overlaps with the body depends on
// the body, so it is measured per workload. One figure for every workload, pfor's loop
// around an empty body (2-worker calls of stealing with grain 1 against the drained take),
// is more than a memory-bound body pays: charged to saxpy/dynamic's hundred thousand and more
// ranges a worker, it predicted the call too slow, outside the tolerance. Timed by calling
// the body directly instead (no pfor, no atomic), the figure leaves out what the take's
// synchronization costs the body, and tiny/stealing, whose workers take over a hundred
// three-item ranges a call, was predicted too fast in every run.
//
// A caller makes it next to each repetition that it is checked against, as the trials of the
// unit (see Calibrator). Why next to it: on a shared virtual machine the figure of one
// workload, trial after trial in one process, moves by a factor of several, and from run to
// run it settles at one of two levels about a factor of two apart. Calibrated once per
// workload, it predicted tiny/stealing too fast, at the edge of the tolerance, in the runs
// that read the lower level.
func (cal *Calibrator) CallTrial() float64 {
	if cal.call == nil {
		cal.call = newCallSample(cal.inst)
	}
	f := cal.call.trial()
	cal.callTrials = append(cal.callTrials, f)
	return f
}

// CallNs returns the median of the call trials so far (the lower middle one of an even
// count), after making one if there is none: the workload's Machine.CallNs.
func (cal *Calibrator) CallNs() float64 {
	if len(cal.callTrials) == 0 {
		cal.CallTrial()
	}
	return lowerMedian(cal.callTrials)
}

// CallTrials returns the figure of every call trial so far, in order.
func (cal *Calibrator) CallTrials() []float64 { return slices.Clone(cal.callTrials) }

// PieceTrial makes one trial of what a piece costs beyond its items, and returns it in
// nanoseconds; the workload's Machine.PieceNs is the median of the trials (see PieceNs). A
// piece is what pfor's worker does between two pieces of one range of a splitting run: the
// call of the body, the check for a stop and a look at the run's Quiet word (Hungry where the
// word has moved, and before the last piece), with no take between them.
// It is measured as CallTrial measures a call, on the same sample: one goroutine runs the
// items through real 2-worker pfor.Chunks calls whose run hands the caller's slot the whole
// sample as one range (see callerPieces), processed once in pieces of one item and once as
// one piece; callRounds rounds alternate which comes first, the figure of a round is the
// difference over the items, and it counts if at least three quarters of the rounds found
// the pieces dearer (see excessOver), and is 0 otherwise.
//
// Why apart from the call: a call's figure holds what the take's atomic operation costs the
// body's work around it, and pfor's loop around a range; a piece pays neither, but pays the
// stop check and the look at Quiet's word instead, so the two differ either way, and a
// splitting run's many small pieces (with many workers a piece is sized down to a few items)
// each charged a call would misstate the partitioners that split.
func (cal *Calibrator) PieceTrial() float64 {
	if cal.call == nil {
		cal.call = newCallSample(cal.inst)
	}
	f := cal.call.pieceTrial()
	cal.pieceTrials = append(cal.pieceTrials, f)
	return f
}

// PieceNs returns the median of the piece trials so far (the lower middle one of an even
// count), after making one if there is none: the workload's Machine.PieceNs.
func (cal *Calibrator) PieceNs() float64 {
	if len(cal.pieceTrials) == 0 {
		cal.PieceTrial()
	}
	return lowerMedian(cal.pieceTrials)
}

// PieceTrials returns the figure of every piece trial so far, in order.
func (cal *Calibrator) PieceTrials() []float64 { return slices.Clone(cal.pieceTrials) }

// callerPieces is the partitioner of the piece trials' passes: its runs hand worker 0 the
// whole range in one Next, to be processed in pieces of piece items, and the other workers
// nothing.
type callerPieces struct{ piece int }

func (callerPieces) Name() string { return "callerpieces" }

func (p callerPieces) Start(lo, hi, workers int) partition.Run {
	// A 1-worker stealing run whose grain is the whole range: its first Next takes it all,
	// and its Quiet and Hungry are the stealing partitioners' own: no worker waits and none
	// steals, so pfor's pieces look at Quiet's word and call Hungry (behind a forwarding call
	// that pfor's pieces do not make) only before the last piece, as on a range that no one
	// else wants.
	inner := partproto.Stealing(partproto.Options{Grain: max(1, hi-lo)}).(partition.Partitioner)
	return &pieceRun{inner: inner.Start(lo, hi, 1).(partproto.SplittingRun), piece: p.piece}
}

// pieceRun is a run of callerPieces: a 1-worker stealing run driven as worker 0, whose
// pieces are piece items.
type pieceRun struct {
	inner partproto.SplittingRun
	piece int
}

func (r *pieceRun) Next(w int) (lo, hi int, ok bool) {
	if w != 0 {
		return 0, 0, false
	}
	return r.inner.Next(0)
}

func (r *pieceRun) Hungry(w, next int) bool              { return r.inner.Hungry(w, next) }
func (r *pieceRun) GiveBack(w, from int)                 { r.inner.GiveBack(w, from) }
func (r *pieceRun) Quiet(w int) (*atomic.Uint64, uint64) { return r.inner.Quiet(w) }
func (*pieceRun) Counts(int) partproto.Counts            { return partproto.Counts{} }
func (*pieceRun) Stolen(int) bool                        { return false }
func (r *pieceRun) Piece(int) int                        { return r.piece }
func (*pieceRun) Idle(int) bool                          { return false }

// callerOnly is the partitioner of the call trials' passes: its runs hand worker 0 the range
// in ranges of grain items, each taken by an atomic add, and the other workers nothing.
type callerOnly struct{ grain int }

func (callerOnly) Name() string { return "calleronly" }

func (p callerOnly) Start(lo, hi, workers int) partition.Run {
	r := &callerRun{grain: p.grain, hi: hi}
	r.next.Store(int64(lo))
	return r
}

// callerRun is a run of callerOnly. Only worker 0 calls Next for work; next is atomic so
// that each take synchronizes as a partitioner's take does.
type callerRun struct {
	next      atomic.Int64
	grain, hi int
}

func (r *callerRun) Next(w int) (lo, hi int, ok bool) {
	if w != 0 {
		return 0, 0, false
	}
	end := int(r.next.Add(int64(r.grain)))
	lo = end - r.grain
	if lo >= r.hi {
		return 0, 0, false
	}
	return lo, min(end, r.hi), true
}

// callPass is about how long the sample of a call trial takes in one call, and callRounds
// how many rounds a trial makes.
const (
	callPass   = 200 * time.Microsecond
	callRounds = 21
)
