package simulate

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/workload"
)

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
// Why next to it: on a shared virtual machine the speed of the same sequential loop over the
// same data moves by up to a factor of two within one process, in states that last a second
// or more, as the host's load on the physical cores changes. A unit calibrated seconds before
// the measurement describes another machine, and so does the median of trials made a round of
// repetitions apart: such medians and the repetitions' missed one another by more than the
// validation's tolerance. A trial made just before a repetition sees the same state: a
// sequential pass's time and its trial's prediction agree in the median.
//
// Each goroutine is timed on the wall clock, as the measured repetitions are: a vCPU that the
// host takes away for a while slows both alike. (Timed by its thread's CPU time, which such a
// pause does not count, a trial predicted 2-worker calls too fast, on every workload.) A trial
// runs each goroutine over samples of the range (see samplePlan), apart from the other
// goroutines' and moving along the range from pass to pass, so that a memory-bound workload
// streams from memory as in a real run instead of re-reading a sample that fits in the cache;
// together the k goroutines process as many items as one timed repetition does (calls passes
// over the range; for tiny, its back-to-back calls), so that a trial is as long as what it
// predicts, after one uncounted pass that warms the cores' caches as the trial warms them for
// the repetition (see trial). A goroutine's figure is its time over the total cost of what it
// ran; a trial's is the mean over its goroutines, and TrialWith returns each goroutine's,
// since the cores of a shared machine do not run at one speed. Running k goroutines at once is
// what captures the sharing of memory bandwidth and caches between cores, up to the cores at
// hand.
type Calibrator struct {
	inst   workload.Instance
	c      Costs
	plans  []samplePlan     // plans[k-1] for k goroutines
	passes []int            // passes per trial, for each k
	next   []int            // the next pass, for each k
	trials [][]float64      // the figure of each trial, for each k
	now    func() time.Time // the unit trials' clock: time.Now but in tests

	calls   int             // passes over the range per timed repetition
	restart []float64       // the restart figure of each trial (see RestartNs)
	cursors []restartCursor // the restart trials' cursors, one per call
	fj      forkJoinTimes   // the fork-join batches (see ForkJoinBatch)

	call        *callSample // what the call trials time, made at the first (see CallTrial)
	callTrials  []float64   // the figure of each call trial
	pieceTrials []float64   // the figure of each piece trial (see PieceTrial)

	transferTrials  []float64 // the figure of each transfer trial (see TransferTrial)
	restartTransfer []float64 // the transfer trial made just after each restart trial
}

// NewCalibrator returns a Calibrator of inst, whose prefix costs are c, for k = 1..procs
// goroutines; one timed repetition of the workload makes calls passes over its range.
func NewCalibrator(inst workload.Instance, c Costs, calls, procs int) *Calibrator {
	cal := &Calibrator{inst: inst, c: c, trials: make([][]float64, procs), now: time.Now, calls: max(1, calls)}
	cal.cursors = make([]restartCursor, cal.calls)
	n := inst.Len()
	for k := 1; k <= procs; k++ {
		plan := newSamplePlan(n, k)
		perPass := max(1, k*plan.stripes*plan.size) // items of one pass, all goroutines together
		cal.plans = append(cal.plans, plan)
		passes := max(1, (max(1, calls)*n+perPass-1)/perPass)
		cal.passes = append(cal.passes, roundUp(passes, k)) // each goroutine in each part alike
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
			cal.passes[k-1] = roundUp(min(1<<20, cal.passes[k-1]*max(2, int(minTrial/max(wall, time.Microsecond))+1)), k)
			continue
		}
		cal.trials[k-1] = append(cal.trials[k-1], mean(figures))
		return figures
	}
}

// trial runs k goroutines over the next passes of plan k and returns the wall time and each
// goroutine's time per cost unit (0 for a goroutine whose items cost nothing).
//
// Each goroutine first runs its last pass once, uncounted, and none is timed before all have.
// The trial made just before a repetition follows the cold calls and the call batch (see
// Calibrator.ColdCalls), milliseconds that touch none of the workload's data, while the
// repetition follows the trial and finds the data that every item reads where the trial left
// them. Without a warm-up, spmv's trials made there ran slower than those made just after
// the repetition, more so with 2 goroutines than with 1, so that its checks drifted from the
// trial before to the trial after and its predictions read too slow. (Most likely its
// gathers from x, which every row reads, miss in a cold core's cache; not measured apart.)
// In runs of the validation with and without the warm-up in turn, the warm-up took most of
// spmv's and query's drift away and brought spmv/static's error down. The warm-up runs the
// last pass, not the first, so that the first counted pass does not find its items in the
// cache where a repetition streams them from memory; even so saxpy's static, dynamic and
// auto checks read a few percent lower with it (their drift unchanged); why is not found.
//
// The passes end at a barrier, so that the next pass may give a goroutine a part another one
// has just written (see samplePlan). A goroutine that has run its pass's chunks goes on over
// its part, uncounted, until every goroutine has run its own, so that each is timed with all k
// cores busy also where one pass's parts cost more than the others' (tailheavy's last part
// holds most of its cost); a goroutine's time is that of its passes' chunks, not of the
// waits.
func (cal *Calibrator) trial(k int) (time.Duration, []float64) {
	plan, passes, next := cal.plans[k-1], cal.passes[k-1], cal.next[k-1]
	cal.next[k-1] += passes
	figures := make([]float64, k)
	var warm, counted, arrived atomic.Int64 // goroutines done with the warm-up, with their counted chunks, and with the pass
	t0 := cal.now()
	var wg sync.WaitGroup
	for g := range k {
		wg.Go(func() {
			for _, ch := range plan.pass(next+passes-1, g) { // the warm-up: the last pass, uncounted
				cal.inst.Chunk(ch[0], ch[1])
			}
			warm.Add(1)                  // publishes the warm-up's writes before the first counted pass
			for warm.Load() < int64(k) { // every goroutine warm before any is timed
				runtime.Gosched()
			}
			var busy time.Duration
			c := 0.0 // local: the goroutines' slots of figures share a cache line
			for i := range passes {
				p := next + i
				start := cal.now()
				for _, ch := range plan.pass(p, g) {
					cal.inst.Chunk(ch[0], ch[1])
					c += cal.c[ch[1]] - cal.c[ch[0]]
				}
				busy += cal.now().Sub(start)
				done := int64(k * (i + 1))
				counted.Add(1) // this pass's figure is taken; the others may stop their uncounted work
				for extra := 1; counted.Load() < done; extra++ {
					for _, ch := range plan.pass(p+extra*k, g) { // further slots of the same part
						cal.inst.Chunk(ch[0], ch[1])
					}
				}
				arrived.Add(1)              // publishes every write to this pass's part before another goroutine gets it
				for arrived.Load() < done { // every part's writes of this pass synchronize before the next pass
					runtime.Gosched() // with more goroutines than procs, let the others finish
				}
			}
			if c > 0 {
				figures[g] = float64(busy.Nanoseconds()) / c
			}
		})
	}
	wg.Wait()
	return cal.now().Sub(t0), figures
}

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

// samplePlan is how calibration samples [0, n) with k goroutines. The range is cut into k
// parts, part q the q-th k-th [q·n/k, (q+1)·n/k), as static's workers run it; in pass p,
// goroutine g samples part (g + p) mod k, so that the goroutines work apart, each in a part
// of its own, and over k passes each samples every part alike. Each part is cut into up to 8
// stripes, each stripe into slots of size items, size = max(n/128, min(64, n/(8k))), so that
// one pass (a slot from every stripe of every part) holds about 1/16 of the items, in runs
// long enough that the cost of a Chunk call is as small a part as in real runs; pass p takes
// slot p mod slots of every stripe, so that successive passes move along the parts. In a
// pass the goroutines' samples are disjoint; across passes they are not, and a trial
// separates its passes with a barrier (see Calibrator.trial).
//
// Why parts, not neighbouring slots of the same stripes (goroutine g the slots g mod k of
// each): goroutines that work side by side, each writing next to the lines the other is
// writing, run slower than goroutines apart, by how much depending on the cost of moving a
// cache line between the cores. With the transfer at its higher level (see TransferTrial),
// tiny's two goroutines ran clearly slower per unit on neighbouring slots than in parts of
// their own, while inside 2-worker static calls its workers ran a little faster still; with
// neighbouring slots, tiny's static, dynamic and guided checks read too slow, about twice as
// far at that level as at the lower one. Where a
// partitioner's workers do work side by side, on dynamic's 64-item chunks from a shared
// cursor, the restart trial measures what that costs against contiguous parts (see
// Calibrator.RestartNs), so the model charges it once.
//
// Why each goroutine in every part: a part's items may cost another amount per cost unit
// than the others'. tailheavy's heavy items (the last 2%) cost more per unit than its light
// ones; goroutines kept to their own part gave units of their part, and the balancing
// partitioners' 2-worker checks on tailheavy read too fast, up to the tolerance.
type samplePlan struct {
	n, k, size, stripes, slots int
}

func newSamplePlan(n, k int) samplePlan {
	size := max(1, n/128, min(64, n/(8*k)))
	stripes := min(8, (n/k)/size)
	sp := samplePlan{n: n, k: k, size: size, stripes: stripes}
	if stripes > 0 {
		sp.slots = (n / k / stripes) / size // at least 1: stripes <= (n/k)/size
	}
	return sp
}

// pass returns goroutine g's chunks in pass p. With fewer items than goroutines (no
// stripes), goroutine g gets item g, or nothing if g >= n.
func (sp samplePlan) pass(p, g int) [][2]int {
	if sp.stripes == 0 {
		if g < sp.n {
			return [][2]int{{g, g + 1}}
		}
		return nil
	}
	// Part q starts at q·n/k and holds at least n/k items; stripe j of it starts j·(n/k)/stripes
	// in, and its slots end within the stripe.
	q := (g + p) % sp.k
	base, part := int(int64(q)*int64(sp.n)/int64(sp.k)), sp.n/sp.k
	slot := p % sp.slots
	chunks := make([][2]int, sp.stripes)
	for j := range chunks {
		lo := base + int(int64(j)*int64(part)/int64(sp.stripes)) + slot*sp.size
		chunks[j] = [2]int{lo, lo + sp.size}
	}
	return chunks
}

// roundUp returns n rounded up to a multiple of k.
func roundUp(n, k int) int { return (n + k - 1) / k * k }
