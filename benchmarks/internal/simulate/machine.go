package simulate

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/stealrange"
)

// Machine holds the workload-independent costs, measured by micro-benchmarks on the machine
// that runs the calibration.
type Machine struct {
	SpinNs float64 `json:"spin_ns"` // one Spin iteration
	// TakeNs[p][k-1] is one Next of partitioner p that hands out a range, while k goroutines
	// call Next on one run as fast as they can, k = 1..Procs: it includes contention on
	// shared cursors. (Calibrations recorded before EmptyNs averaged each goroutine's last,
	// empty Next in.)
	TakeNs map[string][]float64 `json:"take_ns"`
	// EmptyNs[p] is one Next of partitioner p that finds nothing: its worker's range or the
	// shared cursor empty and no other worker listed to steal from (see emptyNexts). Missing
	// from calibrations recorded before it was measured; Model then charges the take.
	EmptyNs map[string]float64 `json:"empty_ns,omitempty"`
	// PollNs[p], for a partitioner whose runs split, is one poll of an idle worker as pfor
	// makes it: a Next that finds nothing, Idle, and a runtime.Gosched (see polls). Missing
	// from calibrations recorded before it was measured; see Model.PollNs.
	PollNs  map[string]float64 `json:"poll_ns,omitempty"`
	StealNs float64            `json:"steal_ns"` // one successful steal, uncontended
	FailNs  float64            `json:"fail_ns"`  // one steal attempt on an empty victim
	// TransferNs is what a cache line costs to move between cores (see pingPong), which the
	// simulation charges to a take from a shared cursor after another core's and to a steal
	// (see Model.TransferNs); 0 with one proc.
	TransferNs float64 `json:"transfer_ns"`
	// StartNs, ForkNs and JoinNs time a pfor call on 2 workers (see forkJoinTimes): from the call
	// to the caller's first item, from the call to the helper's first item, and from the
	// last item's end to the call's return; medians.
	StartNs float64 `json:"start_ns"`
	ForkNs  float64 `json:"fork_ns"`
	JoinNs  float64 `json:"join_ns"`
	// CallNs is what handing a range to the body costs beyond its items, where the caller
	// calibrated it for a workload (see Calibrator.CallTrial); 0 otherwise.
	CallNs float64 `json:"call_ns,omitempty"`
	// PieceNs is what a piece after the first of a range costs beyond its items, where the
	// caller calibrated it for a workload (see Calibrator.PieceTrial); nil otherwise, and
	// then Model charges a piece the call (see piecePerCall).
	PieceNs *float64 `json:"piece_ns,omitempty"`
	Procs   int      `json:"procs"` // GOMAXPROCS during calibration
}

// Model returns the model for partitioner p on workers workers, for a workload whose cost
// unit takes unitNs. Take costs are the ones measured with min(workers, Procs) goroutines,
// except for the partitioners with a shared cursor (see impls.Partitioner.Shared): theirs is
// the take of one goroutine alone, and the simulation charges TransferNs on each take after
// another worker's. (The contended figure of several goroutines that take as fast as they
// can describes neither a loop whose bodies separate the takes, where nearly every take
// follows another worker's, nor one on a short range, where one goroutine drains it before
// the others start: on tiny, 2-worker calls of dynamic, 16 takes a call, ran slower than
// static's by far more than 16 of its contended takes with 2 goroutines cost.)
// The caller's slot starts after StartNs, the helpers' after ForkNs, and the call returns
// JoinNs after the last slot ends, as measured on 2 workers. A Next that finds nothing costs
// EmptyNs, or, for a calibration recorded without it, the take, whose figure then averaged
// the empty Next in; a poll costs PollNs, or, without it, what Model.PollNs says. A range's
// first piece costs CallNs and each later piece PieceNs, or, for a calibration recorded
// without it, piecePerCall calls.
func (m Machine) Model(p string, workers int, unitNs float64) Model {
	take := 0.0
	if t := m.TakeNs[p]; len(t) > 0 {
		take = t[min(workers, len(t))-1]
		if sharedCursor(p) {
			take = t[0]
		}
	}
	empty, ok := m.EmptyNs[p]
	if !ok {
		empty = take
	}
	piece := piecePerCall * m.CallNs
	if m.PieceNs != nil {
		piece = *m.PieceNs
	}
	return Model{UnitNs: unitNs, TakeNs: take, EmptyNs: empty, PollNs: m.PollNs[p], StealNs: m.StealNs, FailNs: m.FailNs, TransferNs: m.TransferNs, CallNs: m.CallNs, PieceNs: piece, StartNs: m.StartNs, ForkNs: m.ForkNs, JoinNs: m.JoinNs}
}

// piecePerCall is what a piece costs in calls, for a calibration recorded before pieces were
// measured: 1, the charge the model made before. Counted in instructions (pfor's 2-worker
// calls over a sample of one-item ranges or pieces, under valgrind's callgrind), a piece ran
// more of them than a call in the code of those calibrations, its take aside: pfor's loop
// around a piece and the stealing partitioners' Hungry, which every piece called then,
// against pfor's loop around a range. What a call costs beyond those
// instructions (what the take's atomic operation costs the body's work around it, the call of
// the body, which a piece makes alike) no instruction count shows, so none of it is taken
// off; a calibration with piece trials has the time of each.
const piecePerCall = 1

// sharedCursor reports whether partitioner p takes from a shared cursor.
func sharedCursor(p string) bool {
	q, ok := partitionerNamed(p)
	return ok && q.Shared
}

// partitionerNamed returns the partitioner of impls.Partitioners named p, and reports whether
// there is one.
func partitionerNamed(p string) (impls.Partitioner, bool) {
	for _, q := range impls.Partitioners() {
		if q.Name == p {
			return q, true
		}
	}
	return impls.Partitioner{}, false
}

// minTrial is how long one timed trial of a calibration lasts at least.
const minTrial = 5 * time.Millisecond

// CalibrateMachine measures the costs of Machine. It takes about a second.
func CalibrateMachine() Machine {
	m := Machine{TakeNs: map[string][]float64{}, EmptyNs: map[string]float64{}, PollNs: map[string]float64{}, Procs: runtime.GOMAXPROCS(0)}
	m.SpinNs = best(func() (time.Duration, float64) {
		const iters = 1 << 20
		t0 := time.Now()
		sink = workload.Spin(sink, iters)
		return time.Since(t0), iters
	})
	// The fork-join calls are timed in batches between the other micro-benchmarks, so that
	// a stretch of a few milliseconds in which the host is slow to run a vCPU (helpers then
	// take tens of times longer to start) spoils one batch, not the median.
	var fj forkJoinTimes
	fj.batch()
	for _, p := range impls.Partitioners() {
		fj.batch()
		m.EmptyNs[p.Name] = best(func() (time.Duration, float64) { return emptyNexts(p) })
		if splits(p) {
			m.PollNs[p.Name] = best(func() (time.Duration, float64) { return polls(p) })
		}
		m.TakeNs[p.Name] = takes(p, 1<<20, m.Procs, m.EmptyNs[p.Name])
	}
	m.StealNs = max(0, best(stealOnce)-m.TakeNs["stealing"][0])
	fj.batch()
	m.FailNs = best(failedSteals)
	fj.batch()
	if m.Procs >= 2 {
		m.TransferNs = typical(pingPong)
	}
	m.StartNs, m.ForkNs, m.JoinNs = fj.medians()
	return m
}

// sink keeps the calibration's Spin results alive.
var sink float64

// best repeats trial until it has run for minTrial at least 5 times, and returns the lowest
// time per unit that a trial reported: (elapsed, units).
func best(trial func() (time.Duration, float64)) float64 {
	lowest := math.Inf(1)
	var total time.Duration
	for i := 0; i < 5 || total < minTrial; i++ {
		d, units := trial()
		total += d
		lowest = min(lowest, float64(d.Nanoseconds())/units)
	}
	return lowest
}

// typical is best with the median trial instead of the fastest, over at least 15 trials and
// 3·minTrial: with goroutines contending, trials spread so widely that the median of 5 of
// them moved by more than half from one calibration to the next.
func typical(trial func() (time.Duration, float64)) float64 {
	per, _ := typicalCounting(trial, func(float64) bool { return true }, math.MaxInt)
	slices.Sort(per)
	return per[len(per)/2]
}

// typicalCounting makes trials as typical does, until 15 of those whose units counts accepts
// and 3·minTrial of them are made, or tries trials in all, and returns the figures of the
// counted ones and of the others, in order.
func typicalCounting(trial func() (time.Duration, float64), counts func(units float64) bool, tries int) (counted, others []float64) {
	var total time.Duration
	for try := 0; try < tries && (len(counted) < 15 || total < 3*minTrial); try++ {
		d, units := trial()
		per := float64(d.Nanoseconds()) / units
		if !counts(units) {
			others = append(others, per)
			continue
		}
		total += d
		counted = append(counted, per)
	}
	return counted, others
}

// CalibrateTakes returns the cost of a take of each partitioner on a range of n items, with
// k = 1..procs goroutines taking at once, as Machine.TakeNs; emptyNs are the partitioners'
// Machine.EmptyNs (see takes). A take costs more or less on a short range than on the 2^20
// items of the machine's calibration: with 2 goroutines on tiny's 1,000 items, stealing's
// runs steal more often, and dynamic's 16 chunks end the contention early, so that its take
// costs a fraction of what it does on the long range.
func CalibrateTakes(n, procs int, emptyNs map[string]float64) map[string][]float64 {
	t := map[string][]float64{}
	for _, p := range impls.Partitioners() {
		t[p.Name] = takes(p, n, procs, emptyNs[p.Name])
	}
	return t
}

// takes returns the cost of one take of p on a range of n items with k = 1..procs goroutines
// taking at once (see drainFor): the time of the goroutines' Next loops less emptyNs for the
// last, empty Next of each, over the Nexts that handed out a range. The simulation charges
// the empty Nexts apart (see Model.EmptyNs), as many as its workers make: averaged in, a
// figure measured with one empty Next in every two or three (auto's on a short range) was
// charged for every Next, the many empty ones of idle workers that poll included.
func takes(p impls.Partitioner, n, procs int, emptyNs float64) []float64 {
	var t []float64
	for k := 1; k <= procs; k++ {
		trial := func() (time.Duration, float64) {
			spent, calls, empties := drainFor(p.New(nil), n, k, time.Millisecond)
			return spent - time.Duration(empties*emptyNs), calls - empties
		}
		// Alone, the fastest trial is the undisturbed cost; with others, the fastest is
		// the one where they happened not to overlap, so the typical trial counts.
		pick := best
		if k > 1 {
			pick = typical
		}
		t = append(t, pick(trial))
	}
	return t
}

// drain starts runs of p over n items with k workers, each driven by its own goroutine that
// calls Next as fast as it can until it reports no more work, for a millisecond in all, and
// returns the time the goroutines spent in their Next loops, added up, and the number of
// Next calls, the empty last one of each loop included. The goroutines start their loops
// together, so that with k > 1 they contend for the whole run, as the workers of a loop over
// a cheap body do. Start is not timed: its cost is paid once per call, not per take.
func drain(p partition.Partitioner, n, k int) (time.Duration, float64) {
	spent, calls, _ := drainFor(p, n, k, time.Millisecond)
	return spent, calls
}

// drainFor is drain for limit in all, and one run at least, and returns also how many of the
// calls found nothing: one a loop, k a run. One run at least: a goroutine descheduled between
// taking the start time and the first look at the clock would otherwise make none and report
// 0 ns over 0 calls, a take of NaN (0/0), which best keeps (min with a NaN is NaN). In one CI
// run, on a loaded machine, dynamic's predictions on tailheavy's 100 items came out NaN, with
// one worker doing all the work, as a NaN first take makes them; this is the one way found
// for a take to be NaN.
//
// It releases each run once its goroutines are done, as pfor does, so that the next run
// reuses it. A run that is not released allocates the spans of its ranges anew as its takes
// and steals install them (see stealrange), which pfor's reused runs do not: on a short
// range, each of an adaptive run's few takes carried a share of those allocations.
func drainFor(p partition.Partitioner, n, k int, limit time.Duration) (spent time.Duration, calls, empties float64) {
	var took, called atomic.Int64
	t0 := drainClock()
	runs := 0
	for ; runs == 0 || drainClock().Sub(t0) < limit; runs++ {
		run := p.Start(0, n, k)
		var ready, done sync.WaitGroup
		var start atomic.Bool
		ready.Add(k)
		for w := range k {
			done.Go(func() {
				ready.Done()
				for !start.Load() {
					runtime.Gosched() // let the others, and the goroutine that starts them, run
				}
				c := int64(1)
				t := drainClock()
				for _, _, ok := run.Next(w); ok; _, _, ok = run.Next(w) {
					c++
				}
				took.Add(int64(drainClock().Sub(t)))
				called.Add(c)
			})
		}
		ready.Wait()
		start.Store(true) // releases the k loops at once
		done.Wait()
		release(run)
	}
	return time.Duration(took.Load()), float64(called.Load()), float64(runs * k)
}

// drainClock is drainFor's clock. Tests that time partitioners whose Nexts move a fake clock
// set it, and set it back to time.Now when they end.
var drainClock = time.Now

// stealOnce times the Next calls of a worker that steals every time: worker 1 takes its
// whole block at once (the grain is larger than any block), then each Next steals a quarter
// of worker 0's remaining items and takes all of them.
func stealOnce() (time.Duration, float64) {
	run := partition.StealingWith(partition.StealingOptions{Grain: 1 << 30}).Start(0, 1<<20, 2).(partproto.StealingRun)
	run.Next(1)
	t0 := time.Now()
	calls := 0
	for {
		before := run.Counts(1).Steals
		if _, _, ok := run.Next(1); !ok || run.Counts(1).Steals == before {
			break
		}
		calls++
	}
	return time.Since(t0), float64(max(calls, 1))
}

// pingPong times two goroutines that increment one counter in turn, each waiting until the
// other's increment shows: a step is what one increment costs when the other core wrote the
// counter last, the time the cache line takes to move. On a shared virtual machine it sits
// at one of two levels, the higher several times the lower (see Calibrator.TransferTrial).
// A trial whose other goroutine does not run (a busy machine) gives up after a second.
func pingPong() (time.Duration, float64) { return pingPongWithin(time.Second) }

// pingPongWithin is pingPong giving up after limit; it returns the time and the steps made.
func pingPongWithin(limit time.Duration) (time.Duration, float64) {
	const steps = pingPongSteps
	var turn atomic.Int64
	var wg sync.WaitGroup
	t0 := time.Now()
	for g := range 2 {
		wg.Go(func() {
			for i := int64(g); i < steps; i += 2 {
				for spins := 1; turn.Load() != i; spins++ {
					if spins%1024 == 0 && time.Since(t0) > limit { // the other does not run
						return
					}
				}
				turn.Add(1)
			}
		})
	}
	wg.Wait()
	return time.Since(t0), float64(max(1, turn.Load()))
}

// pingPongSteps is how many times a ping-pong passes the line when both goroutines run.
const pingPongSteps = 4000

// failedSteals times what a stealing run's failed steal attempt costs: a TrySteal and a
// Stealable on a victim with nothing to steal. (A Next on an empty run attempts no steal:
// thieves try only the workers listed as holding items.)
func failedSteals() (time.Duration, float64) {
	const calls = 1000
	victim := stealrange.New(0, 0)
	t0 := time.Now()
	for range calls {
		victim.TrySteal()
		victim.Stealable()
	}
	return time.Since(t0), calls
}
