package cli

import (
	"fmt"
	"io"
	"runtime"
	"slices"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/progress"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
)

// simulateRun calibrates, predicts every workload at every worker count, measures 1 and 2
// workers for the validation, and prints it all. Each workload's calibration trials run
// between the rounds of its measured repetitions, so that both see the machine at the same
// moments (see simulate.Calibrator).
func simulateRun(o Options, rep *report.Report, stdout, stderr io.Writer) error {
	procs := runtime.GOMAXPROCS(0)
	m := progress.Start(stderr, "calibrating", 1)
	s := &simulate.Study{Machine: simulate.CalibrateMachine(), Workers: o.Workers, Tolerance: Tolerance}
	m.End()
	rep.Study = s

	// Validation: pfor runs 1 worker inline, so the sequential runs measure every partitioner
	// at 1 worker; 2 workers need the partitioners themselves, and 2 cores.
	var parts []impls.Impl
	validate := []int{1}
	if slices.Contains(o.Workers, 2) && procs >= 2 {
		validate = []int{2}
		for _, p := range impls.Partitioners() {
			im, _ := impls.ByName(p.Name)
			parts = append(parts, im)
		}
	}
	measure := slices.Contains(o.Workers, 1) || parts != nil

	for _, w := range o.Workloads {
		n, calls := w.Size(o.Scale, o.N)
		inst := w.New(n)
		c := simulate.PrefixCosts(inst)
		cal := simulate.NewCalibrator(inst, c, calls, procs)
		if measure {
			// Calibration trials go between the measured rounds (see simulate.Calibrator).
			cfg := runner.Config{Workloads: []workloads.Workload{w}, Impls: parts, Workers: validate, Scale: o.Scale, N: o.N, Repeat: o.Repeat, Progress: stderr, BeforeRound: cal.Trial}
			res, err := runner.Compare(cfg)
			if err != nil {
				return err
			}
			rep.Results = append(rep.Results, res...)
		} else {
			pm := progress.Start(stderr, w.Name+": calibrating", 1)
			for range o.Repeat + 1 {
				cal.Trial()
			}
			pm.End()
		}
		sw := simulate.Predict(w.Name, c, calls, cal.Units(), cal.RestartNs(s.Machine.Model("dynamic", procs, 0).TakeNs), s.Machine, o.Workers)
		sw.UnitTrialsNs = cal.Trials()
		s.Workloads = append(s.Workloads, sw)
	}
	s.Validate(func(wl, impl string, k int) (float64, float64, bool) {
		for _, r := range rep.Results {
			if r.Workload == wl && r.Impl == impl && r.Workers == k && r.Skipped == "" {
				return r.MedianNs, r.OtherLoad, true
			}
		}
		return 0, 0, false
	})
	fmt.Fprintf(stdout, "\nscaling simulation (%s), times per call\n", sizeLabel(o))
	return report.WriteStudy(stdout, s)
}
