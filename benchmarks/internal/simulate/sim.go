// Package simulate predicts how stealkit's partitioners scale beyond the cores at hand. It
// drives a real partition.Run from one goroutine in virtual time: each simulated worker has a
// clock; the worker with the smallest clock (the lowest index among equals) calls Next next,
// and its clock advances by the cost of the call (a take, a Next that finds nothing or an idle
// worker's poll, plus any steals and failed steal attempts) and by the cost of the range it
// got (or of its first piece; each later piece is charged when the worker comes to it), from the workload's per-item cost model (Instance.Cost) times the calibrated
// nanoseconds per cost unit. The stealing partitioners
// read the driven worker's virtual clock. Workers claim the run's slots as pfor's caller and
// helpers do: the caller starts slot 0, a helper claims the next free slot when it arrives,
// and a worker whose slot is done claims the next free one. As pfor does with a
// partproto.SplittingRun, a worker processes its range in pieces of the run's Piece(w) items
// and, between pieces, gives the rest back when the run says another worker is hungry; a
// worker that finds no work polls again while the run's Idle says another may give some
// back. See the README for what the model leaves out.
package simulate

import (
	"container/heap"
	"fmt"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/workload"
)

// Costs holds the prefix sums of a workload's item costs: Costs[i] is the total cost of the
// items [0, i), so the range [lo, hi) costs Costs[hi] - Costs[lo].
type Costs []float64

// PrefixCosts returns the prefix sums of inst.Cost over [0, inst.Len()).
func PrefixCosts(inst workload.Instance) Costs {
	c := make(Costs, inst.Len()+1)
	for i := range inst.Len() {
		c[i+1] = c[i] + inst.Cost(i)
	}
	return c
}

// Len returns the number of items.
func (c Costs) Len() int { return len(c) - 1 }

// Total returns the cost of all items.
func (c Costs) Total() float64 { return c[len(c)-1] }

// Model holds the costs that the simulation charges, in nanoseconds.
type Model struct {
	UnitNs float64 // one unit of Instance.Cost (a Spin iteration), for this workload
	// WorkerUnitNs, if not empty, is each worker's own UnitNs: worker w's items cost
	// WorkerUnitNs[w mod len] per unit. The validation sets it from the goroutines of a
	// calibration trial, since the cores of a shared machine do not run at one speed, and a
	// static split waits for the slower while the balancing partitioners even it out.
	WorkerUnitNs []float64
	TakeNs       float64 // a Next that hands out a range from the worker's own or the shared cursor
	EmptyNs      float64 // a Next that finds nothing, its steal attempts aside
	// PollNs is one poll of an idle worker: a Next that finds nothing, Idle and a Gosched,
	// its steal attempts aside. 0 charges legacyPollNs: calibrations recorded before polls
	// were measured have no figure, and a poll must cost something for virtual time to pass
	// while workers poll.
	PollNs  float64
	StealNs float64 // a successful steal, in addition to the take that follows it
	FailNs  float64 // one steal attempt that finds nothing
	// TransferNs is what a cache line costs to move between cores. It is charged, for a
	// partitioner with a shared cursor (impls.Partitioner.Shared), on each Next of a worker
	// after another worker's Next and on each take of a restartChunk-item chunk while another
	// worker runs (see Run), and for each successful steal, whose CAS takes the line of the
	// victim's range.
	TransferNs float64
	// CallNs is charged for each range a worker gets, with the call of the body over it or
	// over its first piece where the worker processes it in pieces (see
	// Calibrator.CallTrial).
	CallNs float64
	// PieceNs is charged for each piece after the first of a range that the worker processes
	// in pieces: the call of the body over it, with pfor's check for a stop and its look at
	// the run's Quiet word before it, and no take (see Calibrator.PieceTrial).
	PieceNs float64
	// RestartNs is charged for each range a worker gets that does not start where its
	// previous range ended, and for each restartChunk-item chunk taken from a shared cursor
	// while another worker runs (see Run): the cost of a new memory stream (see
	// Calibrator.RestartNs). It is measured on chunks of restartChunk items; a shorter range
	// pays its share of it, in proportion to its items (see restartCost).
	RestartNs float64
	StartNs   float64 // delay from the call until the caller's slot (slot 0) starts
	ForkNs    float64 // delay from the call until the helpers' slots start
	JoinNs    float64 // from the last slot's end until the call returns

	// Neighbour, if not nil, is a busy process whose thread shares the workers' cores (see
	// Neighbour): each worker's clock stands still while its thread is off its core.
	Neighbour *Neighbour

	// SeqNs is the sequential time that efficiency refers to; 0 means the total cost times
	// UnitNs. (With several workers UnitNs may be the cost with several cores busy, slower
	// than a sequential run's.)
	SeqNs float64
}

// Result is the prediction for one partitioner, workload and number of workers, for one call.
type Result struct {
	Partitioner  string  `json:"partitioner"`
	Workers      int     `json:"workers"`
	MakespanNs   float64 `json:"makespan_ns"`   // predicted time of the call
	Efficiency   float64 `json:"efficiency"`    // sequential time / (workers · makespan)
	Steals       int64   `json:"steals"`        // successful steals
	FailedSteals int64   `json:"failed_steals"` // steal attempts that found nothing or lost a race
	Chunks       int64   `json:"chunks"`        // ranges handed to the body
	Imbalance    float64 `json:"imbalance"`     // max worker busy time / mean
}

// Run simulates one call of pfor.Chunks over the items of c with p on workers workers. As
// pfor does, one worker (or a single item) runs the whole range inline, as one chunk with no
// scheduling costs. Efficiency refers to m.SeqNs.
// Run is deterministic: the partitioners' victim choice is seeded. It panics if workers < 1.
func Run(c Costs, p impls.Partitioner, workers int, m Model) Result {
	if workers < 1 {
		panic(fmt.Sprintf("simulate: Run(%s, %d workers): need at least one worker", p.Name, workers))
	}
	n := c.Len()
	seq := m.SeqNs
	if seq == 0 {
		seq = c.Total() * m.UnitNs
	}
	unit := func(w int) float64 {
		if len(m.WorkerUnitNs) == 0 {
			return m.UnitNs
		}
		return m.WorkerUnitNs[w%len(m.WorkerUnitNs)]
	}
	if workers == 1 || n <= 1 {
		inline := m.Neighbour.after(0, workers+1, 0, c.Total()*unit(0))
		r := Result{Partitioner: p.Name, Workers: workers, MakespanNs: inline, Efficiency: seq / (float64(workers) * max(inline, 1e-300)), Chunks: 1, Imbalance: 1}
		if n == 0 {
			r.Chunks = 0
		}
		if workers > 1 {
			r.Imbalance = float64(workers) // one worker did everything
		}
		return r
	}

	var now int64 // the driven worker's clock, for the stealing partitioners
	run := p.New(func() int64 { return now }).Start(0, n, workers)
	sr, stealing := run.(partproto.StealingRun)
	split, _ := run.(partproto.SplittingRun)
	poll := m.PollNs
	if poll <= 0 {
		poll = legacyPollNs
	}

	// Drivers are the goroutines that run the slots, as in pfor: the caller (driver 0)
	// starts slot 0 at StartNs; each helper arrives at ForkNs and claims the next unclaimed
	// slot, or leaves if there is none; a driver whose slot has no more work claims the next
	// unclaimed slot, so that a helper that comes late finds its slot run by the caller.
	// Clocks, costs and restarts are the drivers'; Next and the partitioners' state, the slots'.
	nb := m.Neighbour
	threads := workers + 1 // the workers' and the neighbour's
	clock := make([]float64, workers)
	// advance returns driver d's clock after work more on its core.
	advance := func(d int, work float64) float64 { return nb.after(d, threads, clock[d], work) }
	slot := make([]int, workers) // the slot each driver runs; -1 for a helper yet to arrive
	last := make([]int, workers) // where each driver's previous range ended; -1 before the first
	for d := range workers {
		slot[d], last[d] = -1, -1
	}
	slot[0] = 0
	claimed := 1 // slots claimed so far
	busy := make([]float64, workers)
	cur := make([]piecewise, workers) // the range each driver is processing, piece by piece
	// charge charges driver d a call of the body over [lo, hi), which costs over beyond its
	// items: CallNs for a range's first piece, PieceNs for the pieces after it.
	charge := func(d int) func(lo, hi int, over float64) float64 {
		u := unit(d)
		return func(lo, hi int, over float64) float64 {
			t := (c[hi]-c[lo])*u + over
			busy[d] += t
			return t
		}
	}
	q := queue{ws: make([]int, workers), clock: clock}
	for d := range workers {
		clock[d] = m.StartNs
		if d > 0 {
			clock[d] = m.ForkNs
		}
		clock[d] = nb.after(d, threads, 0, clock[d])
		q.ws[d] = d
	}
	heap.Init(&q)

	res := Result{Partitioner: p.Name, Workers: workers}
	end := 0.0
	polls := 0
	cursorAt := -1 // the driver whose core holds a shared cursor's line: the last to call Next
	// working counts the drivers that run a slot now: the caller, and the helpers that have
	// arrived and not left.
	working := 1
	for q.Len() > 0 {
		d := q.ws[0]
		if nb.off(d, threads, clock[d]) { // its thread is off its core: it acts when back on
			clock[d] = advance(d, 0)
			heap.Fix(&q, 0)
			continue
		}
		now = int64(clock[d])
		if slot[d] < 0 { // a helper arrives
			if claimed == workers {
				heap.Pop(&q) // every slot is taken
				continue
			}
			slot[d] = claimed
			claimed++
			working++
		}
		w := slot[d]
		if pc := &cur[d]; pc.lo < pc.hi {
			// Between two pieces, as pfor's workers: give the rest back to a hungry worker,
			// or go on with the next piece.
			if split.Hungry(w, pc.lo) {
				split.GiveBack(w, pc.lo)
				pc.lo = pc.hi
			} else {
				clock[d] = advance(d, pc.next(charge(d), m.PieceNs))
				heap.Fix(&q, 0)
				continue
			}
		}
		var before partproto.Counts
		if stealing {
			before = sr.Counts(w)
		}
		lo, hi, ok := run.Next(w)
		dt := 0.0 // what the Next costs beyond the take, the empty Next or the poll
		// A take from a shared cursor pays a transfer after another worker's take. A take of a
		// restartChunk-item chunk while another worker runs pays one in any case, and its chunk
		// a restart even where it goes on from the worker's previous chunk: the restart trial
		// measured such chunks' average cost, whoever took each one before, and RestartNs is
		// that average less a take and a transfer (see Calibrator.RestartNs). Charging only the
		// chunks that switch, a worker whose unit read faster took two in a row now and then
		// and skipped both charges, which the average had already counted, and saxpy/dynamic's
		// 2-worker call was predicted faster.
		asTrial := p.Shared && ok && working >= 2 && hi-lo == restartChunk
		if p.Shared {
			if asTrial || cursorAt >= 0 && cursorAt != d {
				dt += m.TransferNs
			}
			cursorAt = d
		}
		if stealing {
			after := sr.Counts(w)
			dt += float64(after.Steals-before.Steals)*(m.StealNs+m.TransferNs) + float64(after.FailedSteals-before.FailedSteals)*m.FailNs
			res.Steals += after.Steals - before.Steals
			res.FailedSteals += after.FailedSteals - before.FailedSteals
		}
		switch {
		case ok:
			res.Chunks++
			dt += m.TakeNs
			if lo != last[d] || asTrial {
				dt += restartCost(m.RestartNs, hi-lo)
			}
			last[d] = hi
			cur[d] = piecewise{lo: lo, hi: hi, step: hi - lo}
			if split != nil && hi-lo >= 2 {
				cur[d].step = max(1, split.Piece(w)) // pfor processes a splittable range in pieces
			}
			clock[d] = advance(d, dt+cur[d].next(charge(d), m.CallNs))
			heap.Fix(&q, 0)
		case split != nil && split.Idle(w) && polls < maxPolls:
			// Another worker holds a range it may give back: poll again once some other
			// worker has moved on (pfor's workers yield and poll). The poll's cost holds
			// its Next.
			polls++
			clock[d] = advance(d, dt+poll)
			if next := nextOther(clock, &q, d); next > clock[d] {
				clock[d] = next
			}
			heap.Fix(&q, 0)
		case claimed < workers: // the slot is done: claim the next
			clock[d] = advance(d, dt+m.EmptyNs)
			end = max(end, clock[d])
			slot[d] = claimed
			claimed++
			heap.Fix(&q, 0)
		default:
			clock[d] = advance(d, dt+m.EmptyNs)
			end = max(end, clock[d])
			heap.Pop(&q)
			working--
		}
	}
	res.MakespanNs = nb.after(0, threads, end, m.JoinNs) // the caller returns
	if res.MakespanNs > 0 {
		res.Efficiency = seq / (float64(workers) * res.MakespanNs)
	}
	res.Imbalance = imbalance(busy)
	return res
}

// restartCost returns what a restart of a range of n items costs, for a restart of a
// restartChunk-item chunk that costs restartNs: the same for a range as long or longer, whose
// stream the prefetchers find again after a few lines, and a share in proportion to n for a
// shorter one, which touches fewer lines than the chunk did. The proportion matters to the
// ranges of one or a few items at the end of a guided run: on tiny (1,000 items, 25 guided
// chunks, 20 of them under 64 items) charging each chunk a whole restart predicted 2-worker
// calls too slow, by about the tolerance.
func restartCost(restartNs float64, n int) float64 {
	return restartNs * min(1, float64(n)/restartChunk)
}

// legacyPollNs is what a poll of an idle worker cost the model before polls were measured:
// a guess at a Gosched and a Next (and then a take was charged on top of it, the poll's Next
// twice). maxPolls bounds the polls of a simulation.
const (
	legacyPollNs = 200
	maxPolls     = 1 << 24
)

// piecewise is the rest [lo, hi) of a worker's range, processed step items at a time.
type piecewise struct{ lo, hi, step int }

// next advances pc by one piece and returns what charge says the piece's items cost, with
// over beyond them.
func (pc *piecewise) next(charge func(lo, hi int, over float64) float64, over float64) float64 {
	end := pc.lo + min(pc.step, pc.hi-pc.lo)
	t := charge(pc.lo, end, over)
	pc.lo = end
	return t
}

// nextOther returns the smallest clock among the workers still running other than w, or 0 if
// there is none.
func nextOther(clock []float64, q *queue, w int) float64 {
	next := 0.0
	for _, v := range q.ws {
		if v != w && (next == 0 || clock[v] < next) {
			next = clock[v]
		}
	}
	return next
}

// imbalance returns max(busy) over the mean of busy, or 1 if all are zero.
func imbalance(busy []float64) float64 {
	var sum, most float64
	for _, b := range busy {
		sum += b
		most = max(most, b)
	}
	if sum == 0 {
		return 1
	}
	return most * float64(len(busy)) / sum
}
