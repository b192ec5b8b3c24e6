package simulate

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// Machine holds the workload-independent costs, measured by micro-benchmarks on this machine.
type Machine struct {
	SpinNs float64 `json:"spin_ns"` // one Spin iteration
	// TakeNs[p][k-1] is one Next of partitioner p while k goroutines call Next on one run
	// as fast as they can, k = 1..Procs: it includes contention on shared cursors.
	TakeNs  map[string][]float64 `json:"take_ns"`
	StealNs float64              `json:"steal_ns"` // one successful steal, uncontended
	FailNs  float64              `json:"fail_ns"`  // one steal attempt on an empty victim
	// StartNs, ForkNs and JoinNs time a pfor call on 2 workers (see forkJoinTimes): from the call
	// to the caller's first item, from the call to the helper's first item, and from the
	// last item's end to the call's return; medians.
	StartNs float64 `json:"start_ns"`
	ForkNs  float64 `json:"fork_ns"`
	JoinNs  float64 `json:"join_ns"`
	Procs   int     `json:"procs"` // GOMAXPROCS during calibration
}

// Model returns the model for partitioner p on workers workers, for a workload whose cost
// unit takes unitNs. Take costs are the ones measured with min(workers, Procs) goroutines.
// The caller's slot starts after StartNs, the helpers' after ForkNs, and the call returns
// JoinNs after the last slot ends, as measured on 2 workers.
func (m Machine) Model(p string, workers int, unitNs float64) Model {
	take := 0.0
	if t := m.TakeNs[p]; len(t) > 0 {
		take = t[min(workers, len(t))-1]
	}
	return Model{UnitNs: unitNs, TakeNs: take, StealNs: m.StealNs, FailNs: m.FailNs, StartNs: m.StartNs, ForkNs: m.ForkNs, JoinNs: m.JoinNs}
}

// minTrial is how long one timed trial of a calibration lasts at least.
const minTrial = 5 * time.Millisecond

// CalibrateMachine measures the costs of Machine. It takes about a second.
func CalibrateMachine() Machine {
	m := Machine{TakeNs: map[string][]float64{}, Procs: runtime.GOMAXPROCS(0)}
	m.SpinNs = best(func() (time.Duration, float64) {
		const iters = 1 << 20
		t0 := time.Now()
		sink = workload.Spin(sink, iters)
		return time.Since(t0), iters
	})
	// The fork-join calls are timed in batches between the other micro-benchmarks, so that
	// a stretch of a few milliseconds in which the host is slow to run a vCPU (helpers then
	// took 64 µs to start instead of 2) spoils one batch, not the median.
	var fj forkJoinTimes
	fj.batch()
	for _, p := range impls.Partitioners() {
		fj.batch()
		m.TakeNs[p.Name] = takes(p, 1<<20, m.Procs)
	}
	m.StealNs = max(0, best(stealOnce)-m.TakeNs["stealing"][0])
	fj.batch()
	m.FailNs = best(failedSteals)
	fj.batch()
	m.StartNs, m.ForkNs, m.JoinNs = fj.medians()
	return m
}

// forkJoinTimes times calls of pfor.Chunks over two items on two workers with the static
// partitioner, so that the caller runs item 0 and a helper item 1. Item 0 waits (at most a
// millisecond) until item 1 has started, so that the helper, not the caller, runs it. For
// each batch of calls it keeps the medians of: the call to item 0's start (the caller's own
// start-up: the run, the job, posting it), the call to item 1's start (a spinning helper
// seeing the job and claiming its slot), and the later item's end to the call's return
// (the helper's slot finishing and the caller seeing it).
type forkJoinTimes struct {
	starts, forks, joins []float64 // one median per batch
}

// forkJoinBatch is how many calls a batch times.
const forkJoinBatch = 64

// batch times one batch of calls.
func (fj *forkJoinTimes) batch() {
	var starts, forks, joins []float64
	for range forkJoinBatch {
		var t1, e0, e1 atomic.Int64 // ns since t0, +1 so that 0 means not yet
		var s0 int64
		t0 := time.Now()
		pfor.Chunks(0, 2, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if i == 1 {
					t1.Store(int64(time.Since(t0)) + 1)
					e1.Store(int64(time.Since(t0)) + 1)
					continue
				}
				s0 = int64(time.Since(t0))
				for t1.Load() == 0 && time.Since(t0) < time.Millisecond {
				}
				e0.Store(int64(time.Since(t0)) + 1)
			}
		}, pfor.WithWorkers(2), pfor.WithPartitioner(partition.Static()))
		ret := float64(time.Since(t0))
		starts = append(starts, float64(s0))
		forks = append(forks, float64(t1.Load()-1))
		joins = append(joins, ret-float64(max(e0.Load(), e1.Load())-1))
	}
	fj.starts = append(fj.starts, median(starts))
	fj.forks = append(fj.forks, median(forks))
	fj.joins = append(fj.joins, median(joins))
}

// medians returns the medians of the batches' medians: start, fork and join.
func (fj *forkJoinTimes) medians() (start, fork, join float64) {
	return median(fj.starts), median(fj.forks), median(fj.joins)
}

// median returns the middle value of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
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
// 3·minTrial: with goroutines contending, trials spread widely (stealing's take with 2
// goroutines: a median of 112 ns in one calibration, 187 in another, over 5 trials).
func typical(trial func() (time.Duration, float64)) float64 {
	var per []float64
	var total time.Duration
	for i := 0; i < 15 || total < 3*minTrial; i++ {
		d, units := trial()
		total += d
		per = append(per, float64(d.Nanoseconds())/units)
	}
	slices.Sort(per)
	return per[len(per)/2]
}

// CalibrateTakes returns the cost of a take of each partitioner on a range of n items, with
// k = 1..procs goroutines taking at once, as Machine.TakeNs. A take costs more or less on a
// short range than on the 2^20 items of the machine's calibration: with 2 goroutines on
// tiny's 1,000 items, about 180 ns against 120-160 for stealing, whose runs there steal and
// measure more often, and 23 ns against 65 for dynamic, whose 16 chunks end the contention
// early.
func CalibrateTakes(n, procs int) map[string][]float64 {
	t := map[string][]float64{}
	for _, p := range impls.Partitioners() {
		t[p.Name] = takes(p, n, procs)
	}
	return t
}

// takes returns the cost of one take of p on a range of n items with k = 1..procs goroutines
// taking at once (see drain).
func takes(p impls.Partitioner, n, procs int) []float64 {
	var t []float64
	for k := 1; k <= procs; k++ {
		trial := func() (time.Duration, float64) { return drain(p.New(nil), n, k) }
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
// Next calls. The goroutines start their loops together, so that with k > 1 they contend for
// the whole run, as the workers of a loop over a cheap body do. Start is not timed: its cost
// is paid once per call, not per take.
func drain(p partition.Partitioner, n, k int) (time.Duration, float64) {
	var spent, calls atomic.Int64
	t0 := time.Now()
	for time.Since(t0) < time.Millisecond {
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
				t := time.Now()
				for _, _, ok := run.Next(w); ok; _, _, ok = run.Next(w) {
					c++
				}
				spent.Add(int64(time.Since(t)))
				calls.Add(c)
			})
		}
		ready.Wait()
		start.Store(true) // releases the k loops at once
		done.Wait()
	}
	return time.Duration(spent.Load()), float64(calls.Load())
}

// stealOnce times the Next calls of a worker that steals every time: worker 1 takes its
// whole block at once (the grain is larger than any block), then each Next steals a quarter
// of worker 0's remaining items and takes all of them.
func stealOnce() (time.Duration, float64) {
	run := partition.StealingWith(partition.StealingOptions{Grain: 1 << 30}).Start(0, 1<<20, 2).(partition.StealingRun)
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

// failedSteals times Next on an empty run of 8 workers: each call tries the 7 others twice.
func failedSteals() (time.Duration, float64) {
	const workers, calls = 8, 1000
	run := partition.Stealing().Start(0, 0, workers).(partition.StealingRun)
	t0 := time.Now()
	for range calls {
		run.Next(0)
	}
	d := time.Since(t0)
	return d, float64(max(run.Counts(0).FailedSteals, 1))
}

// CalibrateUnit measures a workload's nanoseconds per cost unit with k = 1..procs goroutines
// running at once, and returns them as unit[k-1]: the figures of a Calibrator after
// calibrationTrials trials.
func CalibrateUnit(inst workload.Instance, c Costs, calls, procs int) []float64 {
	cal := NewCalibrator(inst, c, calls, procs)
	for range calibrationTrials {
		cal.Trial()
	}
	return cal.Units()
}

// calibrationTrials is how many trials CalibrateUnit makes for each number of goroutines.
const calibrationTrials = 7

// A Calibrator measures a workload's nanoseconds per cost unit with k = 1..procs goroutines
// running at once, one trial at a time, so that a caller can make each trial next to the
// measurement that it is checked against.
//
// Why next to it: on the project's machine, a 2-vCPU VM, the speed of the same sequential loop
// over the same data moves by a factor of two within one process (tiny's unit 0.8 or 1.55 ns,
// matmul's 1.6 or 3.6 ns), in states that last a second or more, as the host's load on the
// physical cores changes. A unit calibrated seconds before the measurement describes another
// machine, and so does the median of trials made a round of repetitions apart: medians of
// five repetitions and six such trials missed one another by 16% to 27%. A trial made just
// before a repetition sees the same state: over 300 such pairs, a sequential pass's time and
// its trial's prediction agree to a median ratio of 1.00 (p10 0.88, p90 1.17, matmul).
//
// Each goroutine is timed on the wall clock, as the measured repetitions are: a vCPU that the
// host takes away for a while slows both alike. (Timed by its thread's CPU time, which such a
// pause does not count, a trial predicted 2-worker calls 3% to 25% too fast, on every
// workload.) A trial runs each goroutine over samples of the range (see samplePlan), disjoint
// from the other goroutines' and moving along the range from pass to pass, so that a
// memory-bound workload streams from memory as in a real run instead of re-reading a sample
// that fits in the cache; together the k goroutines process as many items as one timed
// repetition does (calls passes over the range; for tiny, its back-to-back calls), so that a
// trial is as long as what it predicts. A goroutine's figure is its time over the total
// cost of what it ran; a trial's is the mean over its goroutines, and TrialWith returns each
// goroutine's, since the cores of a shared machine do not run at one speed. Running k
// goroutines at once is what captures the sharing of memory bandwidth and caches between
// cores, up to the cores at hand.
type Calibrator struct {
	inst   workload.Instance
	c      Costs
	plans  []samplePlan // plans[k-1] for k goroutines
	passes []int        // passes per trial, for each k
	next   []int        // the next pass, for each k
	trials [][]float64  // the figure of each trial, for each k

	calls   int             // passes over the range per timed repetition
	restart []float64       // the restart figure of each trial (see RestartNs)
	cursors []restartCursor // the restart trials' cursors, one per call
	fj      forkJoinTimes   // the fork-join batches (see ForkJoinBatch)
}

// NewCalibrator returns a Calibrator of inst, whose prefix costs are c, for k = 1..procs
// goroutines; one timed repetition of the workload makes calls passes over its range.
func NewCalibrator(inst workload.Instance, c Costs, calls, procs int) *Calibrator {
	cal := &Calibrator{inst: inst, c: c, trials: make([][]float64, procs), calls: max(1, calls)}
	cal.cursors = make([]restartCursor, cal.calls)
	n := inst.Len()
	for k := 1; k <= procs; k++ {
		plan := newSamplePlan(n, k)
		perPass := max(1, k*plan.stripes*plan.size) // items of one pass, all goroutines together
		cal.plans = append(cal.plans, plan)
		cal.passes = append(cal.passes, max(1, (max(1, calls)*n+perPass-1)/perPass))
		cal.next = append(cal.next, 0)
	}
	return cal
}

// Trial makes one trial for each number of goroutines (see TrialWith) and one of the cost of
// a restart (see RestartTrial).
func (cal *Calibrator) Trial() {
	for k := 1; k <= len(cal.plans); k++ {
		cal.TrialWith(k)
	}
	cal.RestartTrial()
}

// TrialWith makes one trial with k goroutines, 1 <= k <= procs, and returns each goroutine's
// figure, nanoseconds per cost unit (see Calibrator). A trial shorter than minTrial, too short
// to time well, is replaced by a longer one.
func (cal *Calibrator) TrialWith(k int) []float64 {
	defer cal.inst.Reset()
	for {
		wall, figures := cal.trial(k)
		if wall < minTrial && cal.passes[k-1] < 1<<20 {
			cal.passes[k-1] = min(1<<20, cal.passes[k-1]*max(2, int(minTrial/max(wall, time.Microsecond))+1))
			continue
		}
		cal.trials[k-1] = append(cal.trials[k-1], mean(figures))
		return figures
	}
}

// ForkJoinBatch times a batch of 2-worker pfor calls for the workload's own start, fork and
// join (see ForkJoin). It does nothing with fewer than 2 procs.
func (cal *Calibrator) ForkJoinBatch() {
	if len(cal.plans) >= 2 {
		cal.fj.batch()
	}
}

// ForkJoin returns the start, fork and join of a 2-worker call (see Machine) from the batches
// made so far, the medians of their medians, and reports whether there was one. They replace
// the Machine's in the workload's predictions: on the project's VM the machine's, timed in the
// first second of the process, once read 23.9 µs and 79.4 µs for the start and the fork
// (against about 1.1 and 2.0 µs in other runs), while the workload's calls, measured later,
// ran at the usual speed.
func (cal *Calibrator) ForkJoin() (start, fork, join float64, ok bool) {
	if len(cal.fj.starts) == 0 {
		return 0, 0, 0, false
	}
	start, fork, join = cal.fj.medians()
	return start, fork, join, true
}

// RestartTrial makes one trial of the cost of a restart with procs goroutines (see
// RestartNs), if procs is 2 or more.
func (cal *Calibrator) RestartTrial() {
	if k := len(cal.plans); k >= 2 {
		cal.restart = append(cal.restart, cal.restartTrial(k))
		cal.inst.Reset()
	}
}

// restartChunk is the length of the chunks of a restart trial: dynamic's chunks.
const restartChunk = impls.DynamicChunk

// restartTrial runs k goroutines over the whole range twice, calls times each: once in
// contiguous parts, goroutine g the g-th k-th of the range, and once taking chunks of
// restartChunk items in order from a shared cursor, as dynamic's workers do, in an order that
// alternates from trial to trial. It returns what a chunk of the second pass cost beyond the
// same items in the first: (CPU time of the cursor pass - CPU time of the contiguous pass),
// all goroutines together, over the chunks. The figure includes each chunk's take from the
// cursor (see RestartNs). Both passes run the same items, so the figure does not depend on
// how well the workload's cost model or the calibration's samples describe them.
//
// Why a shared cursor and not a fixed assignment (goroutine g the chunks g, g+k, ...): a
// cursor keeps the goroutines in lock-step on neighbouring chunks, each writing next to the
// lines the other is writing and its prefetchers fetching, and that is what makes dynamic's
// chunks expensive on a memory-bound loop. BenchmarkRestartPattern measures it on saxpy at a
// quarter of its size, 2 goroutines (20 passes, 3 runs): contiguous halves 4.4-4.7 ms, a fixed
// assignment 7.2-7.7 ms, the shared cursor 14.3-15.2 ms, dynamic through pfor 14.8-15.4 ms.
func (cal *Calibrator) restartTrial(k int) float64 {
	n := cal.inst.Len()
	chunks := (n + restartChunk - 1) / restartChunk
	contiguous := func(g int) {
		for range cal.calls {
			cal.inst.Chunk(g*n/k, (g+1)*n/k)
		}
	}
	waited := make([]time.Duration, k)
	cursor := func(g int) {
		var w time.Duration
		for call := range cal.calls {
			c := &cal.cursors[call]
			for j := int(c.next.Add(1) - 1); j < chunks; j = int(c.next.Add(1) - 1) {
				cal.inst.Chunk(j*restartChunk, min(n, (j+1)*restartChunk))
			}
			if call+1 < cal.calls {
				// Calls end together, as a loop's end at its join: the next call's chunks
				// are the same items. The wait is not a chunk's cost. It is taken out of
				// the pass in the pass's own clock, the thread's CPU time where there is
				// one: a thread descheduled while it waits spends less CPU time than the
				// wall clock shows, and taking out the wall time made tiny's restarts
				// negative, down to -8.7 µs per chunk.
				t := time.Now()
				cpu0, cpuOK := threadCPU()
				c.arrived.Add(1)
				for c.arrived.Load() < int64(k) {
					runtime.Gosched()
				}
				if cpu1, ok := threadCPU(); cpuOK && ok {
					w += cpu1 - cpu0
				} else {
					w += time.Since(t)
				}
			}
		}
		waited[g] = w
	}
	var cont, curs time.Duration
	if len(cal.restart)%2 == 0 {
		cont, curs = totalTime(k, contiguous), totalTime(k, cursor)
	} else {
		curs, cont = totalTime(k, cursor), totalTime(k, contiguous)
	}
	for _, w := range waited {
		curs -= w
	}
	for i := range cal.cursors {
		cal.cursors[i].next.Store(0)
		cal.cursors[i].arrived.Store(0)
	}
	return float64((curs - cont).Nanoseconds()) / float64(chunks*cal.calls)
}

// threadTimes runs pass(g) on k goroutines, g = 0..k-1, each locked to its thread so that
// the thread's CPU time is the goroutine's, and returns the CPU time of each (wall time
// where the platform cannot tell; see threadCPU).
func threadTimes(k int, pass func(g int)) []time.Duration {
	spent := make([]time.Duration, k)
	var wg sync.WaitGroup
	for g := range k {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w0 := time.Now()
			cpu0, cpuOK := threadCPU()
			pass(g)
			d := time.Since(w0)
			if cpu1, ok := threadCPU(); cpuOK && ok && cpu1 > cpu0 {
				d = cpu1 - cpu0
			}
			spent[g] = d
		})
	}
	wg.Wait()
	return spent
}

// totalTime returns the CPU time of k goroutines running pass, added up (see threadTimes).
func totalTime(k int, pass func(g int)) time.Duration {
	var total time.Duration
	for _, d := range threadTimes(k, pass) {
		total += d
	}
	return total
}

// restartCursor is the shared cursor of a restart trial's call, and the count of goroutines
// done with the call, on a cache line of their own.
type restartCursor struct {
	_       [64]byte
	next    atomic.Int64
	arrived atomic.Int64
	_       [48]byte
}

// lowerMedian returns the median of xs, the lower of the two middle values for an even count;
// xs is not empty and is not modified.
func lowerMedian(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// RestartNs returns what a chunk that does not continue its worker's previous range costs
// beyond its items, with 2 or more workers: the median of the trials' figures, or 0 if there
// were none (one core) or the median is within the noise of the measurement. It is the cost
// of a new memory stream (the hardware prefetchers must find it again, and its first cache
// lines and pages come from farther away) next to another core's (see restartTrial). A
// workload that streams memory, like saxpy, pays it on every one of dynamic's 64-item
// chunks; one that computes in registers, like the Spin loops, does not.
//
// A trial's chunk also pays its take from the shared cursor, which the model charges apart,
// as the take of the partitioner (takeNs, the cost of one take with as many goroutines
// contending, see Machine.TakeNs); RestartNs subtracts it, so that a model that charges both
// charges a dynamic chunk what the trials measured.
//
// The noise: a restart figure is a difference of two times of whole passes, so the spread of
// the passes' times carries over to it. For a workload whose chunks of 64 items take
// milliseconds (mandelbrot's rows) that swamps any restart, and the figures fall on either
// side of the take. So the median counts only if at least three quarters of the trials found
// a chunk dearer than its take (see restartFrom); otherwise RestartNs reports 0.
func (cal *Calibrator) RestartNs(takeNs float64) float64 {
	return restartFrom(cal.restart, takeNs)
}

// restartFrom returns the restart cost from the restart trials' figures and the take that
// each figure includes: the lower median less the take, if at least three quarters of the
// figures exceed the take (a sign test: with six trials of noise alone, five or more on one
// side come up 11% of the time, 21 or more of 30 trials 2%), and 0 otherwise or without
// figures.
func restartFrom(figures []float64, takeNs float64) float64 {
	above := 0
	for _, f := range figures {
		if f > takeNs {
			above++
		}
	}
	if len(figures) == 0 || 4*above < 3*len(figures) {
		return 0
	}
	return lowerMedian(figures) - takeNs
}

// trial runs k goroutines over the next passes of plan k and returns the wall time and each
// goroutine's wall time per cost unit (0 for a goroutine whose items cost nothing).
func (cal *Calibrator) trial(k int) (time.Duration, []float64) {
	plan, passes, next := cal.plans[k-1], cal.passes[k-1], cal.next[k-1]
	cal.next[k-1] += passes
	figures := make([]float64, k)
	t0 := time.Now()
	var wg sync.WaitGroup
	for g := range k {
		wg.Go(func() {
			start := time.Now()
			c := 0.0 // local: the goroutines' slots of figures share a cache line
			for p := next; p < next+passes; p++ {
				for _, ch := range plan.pass(p, g) {
					cal.inst.Chunk(ch[0], ch[1])
					c += cal.c[ch[1]] - cal.c[ch[0]]
				}
			}
			if c > 0 {
				figures[g] = float64(time.Since(start).Nanoseconds()) / c
			}
		})
	}
	wg.Wait()
	return time.Since(t0), figures
}

// mean returns the mean of the positive values of xs, or 0 if there is none (no item has a
// cost: the unit does not matter).
func mean(xs []float64) float64 {
	sum, m := 0.0, 0
	for _, x := range xs {
		if x > 0 {
			sum += x
			m++
		}
	}
	if m == 0 {
		return 0
	}
	return sum / float64(m)
}

// RestartTrials returns the figure of every restart trial so far, in order, each with its
// chunk's take (see RestartNs).
func (cal *Calibrator) RestartTrials() []float64 { return slices.Clone(cal.restart) }

// Trials returns the figure of every trial so far, trials[k-1] for k goroutines, in order.
func (cal *Calibrator) Trials() [][]float64 {
	t := make([][]float64, len(cal.trials))
	for k := range t {
		t[k] = slices.Clone(cal.trials[k])
	}
	return t
}

// Units returns the nanoseconds per cost unit for k = 1..procs busy cores, as unit[k-1]: the
// median trial of each k (the lower middle one of an even count; see Calibrator for why the
// median). It panics if no trial was made.
func (cal *Calibrator) Units() []float64 {
	unit := make([]float64, len(cal.trials))
	for k, ts := range cal.trials {
		if len(ts) == 0 {
			panic("simulate: Calibrator.Units before any Trial")
		}
		// More busy cores never make a unit cheaper; a lower figure than with one core is
		// noise in the measurement.
		unit[k] = max(lowerMedian(ts), unit[0])
	}
	return unit
}

// samplePlan is how calibration samples [0, n) with k goroutines: the range is cut into up
// to 8 stripes, each stripe into slots of size items, size = max(n/128, min(64, n/(8k))), so
// that one pass (a slot from every stripe) holds about 1/16 of the items, in runs long
// enough that the cost of a Chunk call is as small a part as in real runs. In pass p,
// goroutine g takes slot (p·k + g) mod slots of every stripe, slots a multiple of k: the k
// goroutines' samples are disjoint, in one pass and across the passes of a trial (so that no
// item is written by two goroutines without synchronization between them), and successive
// passes move along the range.
type samplePlan struct {
	n, k, size, stripes, slots int
}

func newSamplePlan(n, k int) samplePlan {
	size := max(1, n/128, min(64, n/(8*k)))
	stripes := min(8, n/(k*size))
	sp := samplePlan{n: n, k: k, size: size, stripes: stripes}
	if stripes > 0 {
		sp.slots = (n / stripes) / size // at least k: stripes <= n/(k·size)
		sp.slots -= sp.slots % k        // a multiple of k: goroutine g gets the slots g mod k only
	}
	return sp
}

// pass returns goroutine g's chunks in pass p. With fewer than k items (no stripes),
// goroutine g gets item g, or nothing if g >= n.
func (sp samplePlan) pass(p, g int) [][2]int {
	if sp.stripes == 0 {
		if g < sp.n {
			return [][2]int{{g, g + 1}}
		}
		return nil
	}
	slot := (p*sp.k + g) % sp.slots
	chunks := make([][2]int, sp.stripes)
	for j := range chunks {
		lo := int(int64(j)*int64(sp.n)/int64(sp.stripes)) + slot*sp.size
		chunks[j] = [2]int{lo, lo + sp.size}
	}
	return chunks
}
