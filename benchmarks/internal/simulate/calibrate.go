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
	TakeNs     map[string][]float64 `json:"take_ns"`
	StealNs    float64              `json:"steal_ns"`     // one successful steal, uncontended
	FailNs     float64              `json:"fail_ns"`      // one steal attempt on an empty victim
	ForkJoinNs float64              `json:"fork_join_ns"` // one pfor.Chunks call on 2 workers with an empty body
	Procs      int                  `json:"procs"`        // GOMAXPROCS during calibration
}

// Model returns the model for partitioner p on workers workers, for a workload whose cost
// unit takes unitNs. Take costs are the ones measured with min(workers, Procs) goroutines.
// The fork-join cost is split evenly: helpers start after half of it, and the call returns
// half of it after the last slot ends.
func (m Machine) Model(p string, workers int, unitNs float64) Model {
	take := 0.0
	if t := m.TakeNs[p]; len(t) > 0 {
		take = t[min(workers, len(t))-1]
	}
	return Model{UnitNs: unitNs, TakeNs: take, StealNs: m.StealNs, FailNs: m.FailNs, ForkNs: m.ForkJoinNs / 2, JoinNs: m.ForkJoinNs / 2}
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
	for _, p := range impls.Partitioners() {
		for k := 1; k <= m.Procs; k++ {
			trial := func() (time.Duration, float64) { return drain(p.New(nil), 1<<20, k) }
			// Alone, the fastest trial is the undisturbed cost; with others, the fastest is
			// the one where they happened not to overlap, so the typical trial counts.
			pick := best
			if k > 1 {
				pick = typical
			}
			m.TakeNs[p.Name] = append(m.TakeNs[p.Name], pick(trial))
		}
	}
	m.StealNs = max(0, best(stealOnce)-m.TakeNs["stealing"][0])
	m.FailNs = best(failedSteals)
	m.ForkJoinNs = best(func() (time.Duration, float64) {
		const calls = 200
		noop := func(int, int) {}
		t0 := time.Now()
		for range calls {
			pfor.Chunks(0, 2, noop, pfor.WithWorkers(2), pfor.WithPartitioner(partition.Static()))
		}
		return time.Since(t0), calls
	})
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

// typical is best with the median trial instead of the fastest.
func typical(trial func() (time.Duration, float64)) float64 {
	var per []float64
	var total time.Duration
	for i := 0; i < 5 || total < minTrial; i++ {
		d, units := trial()
		total += d
		per = append(per, float64(d.Nanoseconds())/units)
	}
	slices.Sort(per)
	return per[len(per)/2]
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
// running at once, and returns them as unit[k-1]. Where the platform can tell (Linux), each
// goroutine is timed by the CPU time of its thread (see threadCPU), not by wall time. Each goroutine times passes over samples of
// the range (see samplePlan), disjoint from the other goroutines' and moving along the range
// from pass to pass, so that a memory-bound workload streams from memory as in a real run
// instead of re-reading a sample that fits in the cache. A goroutine's figure is its time
// over the total cost of what it ran; each k takes the fastest of 7 trials of the mean over
// its goroutines (other processes can only slow a trial down, so the fastest is the least
// disturbed). Running k goroutines at once is what captures the sharing of memory
// bandwidth and caches between cores, up to the cores at hand.
func CalibrateUnit(inst workload.Instance, c Costs, procs int) []float64 {
	n := inst.Len()
	unit := make([]float64, procs)
	for k := 1; k <= procs; k++ {
		plan := newSamplePlan(n, k)
		passes, next := 1, 0
		var trials []float64
		for len(trials) < 7 {
			per := make([]float64, k)
			var wg sync.WaitGroup
			t0 := time.Now()
			for g := range k {
				wg.Go(func() {
					runtime.LockOSThread() // so that the thread's CPU time is the goroutine's
					defer runtime.UnlockOSThread()
					cost := 0.0
					w0 := time.Now()
					cpu0, cpuOK := threadCPU()
					for p := next; p < next+passes; p++ {
						for _, ch := range plan.pass(p, g) {
							inst.Chunk(ch[0], ch[1])
							cost += c[ch[1]] - c[ch[0]]
						}
					}
					d := time.Since(w0)
					if cpu1, ok := threadCPU(); cpuOK && ok && cpu1 > cpu0 {
						d = cpu1 - cpu0
					}
					if cost > 0 {
						per[g] = float64(d.Nanoseconds()) / cost
					}
				})
			}
			wg.Wait()
			wall := time.Since(t0)
			next += passes
			if wall < minTrial && passes < 1<<20 {
				// Too short to time well: a longer trial replaces it.
				passes = min(1<<20, passes*max(2, int(minTrial/max(wall, time.Microsecond))+1))
				continue
			}
			mean, m := 0.0, 0
			for _, p := range per {
				if p > 0 {
					mean += p
					m++
				}
			}
			if m > 0 {
				trials = append(trials, mean/float64(m))
			} else {
				trials = append(trials, 0) // no item has a cost: the unit does not matter
			}
		}
		// More busy cores never make a unit cheaper; a lower figure than with one core is
		// noise in the measurement.
		unit[k-1] = max(slices.Min(trials), unit[0])
	}
	inst.Reset()
	return unit
}

// samplePlan is how calibration samples [0, n) with k goroutines: the range is cut into up
// to 8 stripes, each stripe into slots of size items, size = max(n/128, min(64, n/(8k))), so
// that one pass (a slot from every stripe) holds about 1/16 of the items, in runs long
// enough that the cost of a Chunk call is as small a part as in real runs. In pass p,
// goroutine g takes slot (p·k + g) mod slots of every stripe: the k goroutines' samples are
// disjoint, and successive passes move along the range.
type samplePlan struct {
	n, k, size, stripes, slots int
}

func newSamplePlan(n, k int) samplePlan {
	size := max(1, n/128, min(64, n/(8*k)))
	stripes := min(8, n/(k*size))
	sp := samplePlan{n: n, k: k, size: size, stripes: stripes}
	if stripes > 0 {
		sp.slots = (n / stripes) / size // at least k: stripes <= n/(k·size)
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
