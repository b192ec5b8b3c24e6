// Package runner times implementations on workloads: the comparison table's measurements,
// and the per-worker timeline of one run.
package runner

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/load"
	"github.com/stealkit/stealkit/benchmarks/internal/progress"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/internal/workload"
)

// Config is what a comparison runs.
type Config struct {
	Workloads []workloads.Workload // in report order
	Impls     []impls.Impl         // "sequential" is added if missing: speedups need it
	Workers   []int                // worker counts, each at least 1
	Scale     float64              // work scale (see workloads.Workload.Size)
	N         int                  // items, if > 0, for every workload
	Repeat    int                  // timed repetitions, at least 1, after one untimed warm-up
	Progress  io.Writer            // where progress goes; nil for none

	// BeforeRound, if not nil, is called before each round of repetitions (the warm-up round
	// included), outside every timed repetition: the simulator calibrates there, so that its
	// calibration and the measurements see the machine at the same moments.
	BeforeRound func()
	// BeforeRepetition, if not nil, is called before each repetition of each cell (the
	// warm-up's included), outside the timing, with the cell's implementation and workers:
	// the simulator makes there the calibration trial that the repetition is checked against.
	BeforeRepetition func(impl string, workers int)
	// AfterRepetition, if not nil, is called after each repetition of each cell (the
	// warm-up's included), outside the timing, with the cell's implementation and workers:
	// the simulator makes there a second trial, so that each repetition has one on either
	// side and a change of the machine's speed in between shows.
	AfterRepetition func(impl string, workers int)
	// Instance, if not nil, returns the instance to measure workload w on, of n items, instead
	// of a new one: the simulator measures the instance it calibrates on, since on a virtual
	// machine two instances of the same data can run at different speeds (their memory is
	// backed differently).
	Instance func(w workloads.Workload, n int) workload.Instance
}

// Result is one cell of the comparison: an implementation on a workload with a number of
// workers. Times are per call (tiny makes Calls calls per repetition).
type Result struct {
	Workload   string    `json:"workload"`
	Impl       string    `json:"impl"`
	Group      string    `json:"group"` // the implementation's group: baseline, stealkit or peer
	Workers    int       `json:"workers"`
	N          int       `json:"n"`                  // items per call
	Calls      int       `json:"calls"`              // calls per repetition
	TimesNs    []float64 `json:"times_ns,omitempty"` // each timed repetition, per call
	MedianNs   float64   `json:"median_ns"`          // the median of TimesNs
	Speedup    float64   `json:"speedup"`            // sequential median / median
	Efficiency float64   `json:"efficiency"`         // speedup / workers
	VsPeer     float64   `json:"vs_best_peer"`       // median / best peer's median; 0 if no peer ran
	Measured   bool      `json:"measured"`           // Steals and Imbalance are known
	Steals     float64   `json:"steals_per_call"`    // successful steals per call
	Imbalance  float64   `json:"imbalance"`          // max worker busy time / mean, mean over calls
	Skipped    string    `json:"skipped,omitempty"`  // why the implementation did not run
	OtherLoad  float64   `json:"other_load_cores"`   // CPUs others (processes, the host) kept busy while the workload was measured; -1 unknown
	Cores      float64   `json:"cores"`              // this process's CPU time / wall time over the timed repetitions; -1 unknown or timed for less than MinCPUWindow
	Checksum   uint64    `json:"checksum,omitempty"` // equal to the sequential run's
}

// MinCPUWindow is the shortest total time of a cell's timed repetitions for which Result.Cores
// is reported. The process's CPU clock counts a thread running on another CPU only up to its
// last scheduler tick or switch, so over a shorter window the ratio can read well above the
// number of CPUs.
const MinCPUWindow = 10 * time.Millisecond

// cell is a Result being measured, with the implementation's run function.
type cell struct {
	res  *Result
	im   impls.Impl
	run  func(workload.Instance)
	stop func()

	cpu, wall  time.Duration // the process's CPU time and the wall time of the timed repetitions
	cpuUnknown bool          // some repetition's CPU time could not be read
}

// Compare runs the comparison. For each workload it builds one instance, computes the
// sequential checksum, then runs every (implementation, workers) cell once untimed and Repeat
// times timed, round-robin so that a disturbance of the machine hits every cell alike. Inputs
// are reset, untimed, before each run, and every run's checksum is checked against the
// sequential one: a mismatch is an error. Then each implementation that can be measured makes
// one more, untimed, pass for steals and imbalance.
func Compare(cfg Config) ([]Result, error) {
	ims := cfg.Impls
	if !slices.ContainsFunc(ims, func(im impls.Impl) bool { return im.Name == "sequential" }) {
		seq, _ := impls.ByName("sequential")
		ims = append([]impls.Impl{seq}, ims...)
	}
	var out []Result
	for _, w := range cfg.Workloads {
		rs, err := compareOne(cfg, w, ims)
		if err != nil {
			return out, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

func compareOne(cfg Config, w workloads.Workload, ims []impls.Impl) ([]Result, error) {
	n, calls := w.Size(cfg.Scale, cfg.N)
	var cells []*cell
	for _, im := range ims {
		if !im.Runs(w.Name) {
			continue // the query-only implementations (plinq, ...) run nothing else
		}
		ws := cfg.Workers
		switch {
		case im.Name == "sequential":
			ws = []int{1}
		case im.AnyWorkers:
			ws = []int{slices.Max(ws)}
		}
		for _, k := range ws {
			r := &Result{Workload: w.Name, Impl: im.Name, Group: string(im.Group), Workers: k, N: n, Calls: calls, Cores: -1}
			c := &cell{res: r, im: im}
			if im.MaxN > 0 && n > im.MaxN {
				r.Skipped = fmt.Sprintf("n = %d > %d", n, im.MaxN)
			} else {
				c.run, c.stop = im.Start(k)
			}
			cells = append(cells, c)
		}
	}
	defer func() {
		for _, c := range cells {
			if c.stop != nil {
				c.stop()
			}
		}
	}()

	var live []*cell
	for _, c := range cells {
		if c.run != nil {
			live = append(live, c)
		}
	}
	m := progressStart(cfg.Progress, w.Name, (cfg.Repeat+1)*len(live))
	defer m.End()
	m.Step(0, "building the inputs and the sequential checksum")
	var inst workload.Instance
	if cfg.Instance != nil {
		inst = cfg.Instance(w, n)
	} else {
		inst = w.New(n)
	}
	want := sequentialChecksum(inst, calls)
	step := 0
	// Other processes' load is measured over all the workload's repetitions, gaps included:
	// /proc's CPU times count in 10 ms steps, too coarse for one repetition of a few ms.
	var others load.Span
	before := load.Take()
	for rep := range cfg.Repeat + 1 {
		if cfg.BeforeRound != nil {
			m.Step(step, fmt.Sprintf("round %d of %d: before the round", rep, cfg.Repeat))
			cfg.BeforeRound()
		}
		for _, c := range live {
			m.Step(step, fmt.Sprintf("%s w=%d, repetition %d of %d (0 = warm-up)", c.res.Impl, c.res.Workers, rep, cfg.Repeat))
			step++
			if cfg.BeforeRepetition != nil {
				cfg.BeforeRepetition(c.res.Impl, c.res.Workers)
			}
			inst.Reset()
			cpu0, ok0 := load.ProcessCPU()
			t0 := time.Now()
			for range calls {
				c.run(inst)
			}
			d := time.Since(t0)
			cpu1, ok1 := load.ProcessCPU()
			// The checksum first: AfterRepetition may use the instance (see Config.Instance).
			if got := inst.Checksum(); got != want {
				return nil, fmt.Errorf("runner: %s with %s, %d workers: checksum %#x; want %#x (the sequential run's)", w.Name, c.res.Impl, c.res.Workers, got, want)
			}
			if cfg.AfterRepetition != nil {
				cfg.AfterRepetition(c.res.Impl, c.res.Workers)
			}
			c.res.Checksum = want
			if rep > 0 {
				c.res.TimesNs = append(c.res.TimesNs, float64(d.Nanoseconds())/float64(calls))
				c.cpu += cpu1 - cpu0
				c.wall += d
				c.cpuUnknown = c.cpuUnknown || !ok0 || !ok1
			}
		}
	}
	others.Add(before, load.Take())
	for _, c := range live {
		if c.im.Measure == nil {
			continue
		}
		m.Step(step, fmt.Sprintf("%s w=%d, measuring steals and imbalance", c.res.Impl, c.res.Workers))
		if err := measure(c, inst, calls, want); err != nil {
			return nil, err
		}
	}

	var rs []Result
	for _, c := range cells {
		if c.run != nil {
			c.res.MedianNs = Median(c.res.TimesNs)
			c.res.OtherLoad = others.Cores()
			c.res.Cores = -1
			if !c.cpuUnknown && c.wall >= MinCPUWindow {
				c.res.Cores = c.cpu.Seconds() / c.wall.Seconds()
			}
		}
		rs = append(rs, *c.res)
	}
	derive(rs)
	return rs, nil
}

// sequentialChecksum resets inst, runs calls sequential passes and returns the checksum.
func sequentialChecksum(inst workload.Instance, calls int) uint64 {
	inst.Reset()
	for range calls {
		inst.Chunk(0, inst.Len())
	}
	return inst.Checksum()
}

// measure makes one pass of calls calls with c's Measure and records steals and imbalance.
func measure(c *cell, inst workload.Instance, calls int, want uint64) error {
	inst.Reset()
	var steals int64
	var imb float64
	for range calls {
		s := c.im.Measure(inst, c.res.Workers)
		steals += s.Steals
		imb += s.Imbalance()
	}
	if got := inst.Checksum(); got != want {
		return fmt.Errorf("runner: %s with %s, %d workers, measured pass: checksum %#x; want %#x", c.res.Workload, c.res.Impl, c.res.Workers, got, want)
	}
	c.res.Measured = true
	c.res.Steals = float64(steals) / float64(calls)
	c.res.Imbalance = imb / float64(calls)
	return nil
}

// derive fills the columns computed from medians: speedup and efficiency against the
// sequential median, and the ratio to the best peer with the same number of workers.
func derive(rs []Result) {
	var seq float64
	best := map[int]float64{}
	for _, r := range rs {
		if r.Skipped != "" {
			continue
		}
		if r.Impl == "sequential" {
			seq = r.MedianNs
		}
		if r.Group == string(impls.Peer) && (best[r.Workers] == 0 || r.MedianNs < best[r.Workers]) {
			best[r.Workers] = r.MedianNs
		}
	}
	for i := range rs {
		r := &rs[i]
		if r.Skipped != "" || r.MedianNs == 0 {
			continue
		}
		r.Speedup = seq / r.MedianNs
		r.Efficiency = r.Speedup / float64(r.Workers)
		if b := best[r.Workers]; b > 0 {
			r.VsPeer = r.MedianNs / b
		}
	}
}

// Median returns the median of xs (the mean of the two middle values for an even count), or
// 0 for none. It does not modify xs.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// progressStart starts a meter on w, or returns nil (which shows nothing) if w is nil.
func progressStart(w io.Writer, phase string, total int) *progress.Meter {
	if w == nil {
		return nil
	}
	return progress.Start(w, phase, total)
}
