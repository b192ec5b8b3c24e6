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
	"github.com/stealkit/stealkit/internal/workload"
)

// testHookMeasure, if not nil, is called before each measurement that simulateRun makes: a
// workload's round (impl "") or a cell measured again (impl "sequential" or a partitioner).
var testHookMeasure func(workload, impl string)

// simulateRun calibrates, predicts every workload at every worker count, measures 1 and 2
// workers for the validation, settling each workload's checks right after its round (see
// settle), and prints it all. Each measured repetition is bracketed by
// calibration trials with as many goroutines as it has workers, and with 2 workers by trials
// of the call of the body and of a cache line's transfer and by batches of fork-join calls,
// one just before and one just after (see brackets), and the validation checks it against the
// mean of the predictions with the two sides' (see simulate.Study.Validate).
func simulateRun(o Options, rep *report.Report, stdout, stderr io.Writer) error {
	procs := runtime.GOMAXPROCS(0)
	m := progress.Start(stderr, "calibrating", 1)
	s := &simulate.Study{Machine: simulate.CalibrateMachine(), Workers: o.Workers, Tolerance: tolerance, DisturbedCores: disturbedCores}
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

	br := newBrackets()
	for _, w := range o.Workloads {
		n, calls := w.Size(o.Scale, o.N)
		inst := w.New(n)
		c := simulate.PrefixCosts(inst)
		cal := simulate.NewCalibrator(inst, c, calls, procs)
		var round []runner.Result
		if measure {
			// Goroutine counts that no measured cell has get their trials once a round, and
			// so does the restart if no 2-worker cell makes it; a batch of fork-join calls
			// times the workload's own start, fork and join.
			otherTrials := func() {
				for k := 1; k <= procs; k++ {
					if k != 1 && (k != 2 || parts == nil) {
						cal.TrialWith(k)
					}
				}
				if parts == nil {
					cal.RestartTrial()
				}
				cal.ForkJoinBatch("static")
			}
			trialBefore, trialAfter := br.hooks(w.Name, cal)
			cfg := runner.Config{Workloads: []workloads.Workload{w}, Impls: parts, Workers: validate, Scale: o.Scale, N: o.N, Repeat: o.Repeat, Progress: stderr,
				BeforeRound: otherTrials, BeforeRepetition: trialBefore, AfterRepetition: trialAfter, Instance: same(inst)}
			if testHookMeasure != nil {
				testHookMeasure(w.Name, "")
			}
			res, err := runner.Compare(cfg)
			if err != nil {
				return err
			}
			round = res
			rep.Results = append(rep.Results, res...)
		} else {
			pm := progress.Start(stderr, w.Name+": calibrating", 1)
			for range o.Repeat + 1 {
				cal.Trial()
			}
			pm.End()
		}
		// The machine with the takes on a range of this workload's length, and its call, its
		// transfer and its fork-join as timed during its rounds.
		wm := s.Machine
		wm.TakeNs = simulate.CalibrateTakes(n, procs, s.Machine.EmptyNs)
		wm.CallNs = cal.CallNs()
		piece := cal.PieceNs()
		wm.PieceNs = &piece
		if transfer, ok := cal.TransferNs(); ok {
			wm.TransferNs = transfer
		}
		if start, fork, join, ok := cal.ForkJoin(); ok {
			wm.StartNs, wm.ForkNs, wm.JoinNs = start, fork, join
		}
		// A restart trial's chunk pays a take from its shared cursor, after the other
		// goroutine's take nearly always: RestartNs leaves out both, the transfer each
		// trial's own (see Machine.Model).
		dm := wm.Model("dynamic", procs, 0)
		sw := simulate.Predict(w.Name, c, calls, cal.Units(), cal.RestartNs(dm.TakeNs), wm, o.Workers)
		sw.UnitTrialsNs = cal.Trials()
		sw.RestartTrialsNs = cal.RestartTrials()
		sw.RestartTransfersNs, sw.RestartTakeNs = cal.RestartTransfers(), dm.TakeNs
		sw.CallTrialsNs = cal.CallTrials()
		sw.PieceTrialsNs = cal.PieceTrials()
		sw.TransferTrialsNs = cal.TransferTrials()
		s.Workloads = append(s.Workloads, sw)
		if measure {
			if err := settle(o, s, w, c, inst, cal, round, br, stderr); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(stdout, "\nscaling simulation (%s), times per call\n", sizeLabel(o))
	return report.WriteStudy(stdout, s)
}

// same returns a runner.Config.Instance that measures inst, the instance the calibration
// runs on: on a virtual machine a second instance of the same data can run markedly slower
// than the calibrated one (its memory is backed differently), which the validation would
// read as the model's error.
func same(inst workload.Instance) func(workloads.Workload, int) workload.Instance {
	return func(workloads.Workload, int) workload.Instance { return inst }
}

// settle validates the workload w's predictions against its round, whose results are res, and
// measures again, right away, the checks whose repetitions scatter or that missed, each cell
// alone, bracketed as in the round (the sequential cell that the runner adds to every
// comparison is not); see simulate.Study.Remeasure for why right away.
func settle(o Options, s *simulate.Study, w workloads.Workload, c simulate.Costs, inst workload.Instance, cal *simulate.Calibrator, res []runner.Result, br *brackets, stderr io.Writer) error {
	s.Validate(w.Name, c, func(impl string, k int) (simulate.Repetitions, bool) {
		if r, ok := cellOf(res, impl, k); ok {
			return br.repetitions(r)
		}
		return simulate.Repetitions{}, false
	})
	var remeasureErr error
	s.Remeasure(w.Name, c, func(impl string, k int) (simulate.Repetitions, bool) {
		again := newBrackets()
		before, after := again.hooks(w.Name, cal)
		only := func(hook func(string, int)) func(string, int) {
			return func(im string, kk int) {
				if im == impl && kk == k {
					hook(im, kk)
				}
			}
		}
		var ims []impls.Impl
		if impl != "sequential" {
			im, _ := impls.ByName(impl)
			ims = []impls.Impl{im}
		}
		cfg := runner.Config{Workloads: []workloads.Workload{w}, Impls: ims, Workers: []int{k}, Scale: o.Scale, N: o.N, Repeat: o.Repeat,
			Progress: stderr, BeforeRepetition: only(before), AfterRepetition: only(after), Instance: same(inst)}
		if testHookMeasure != nil {
			testHookMeasure(w.Name, impl)
		}
		res, err := runner.Compare(cfg)
		if err != nil {
			remeasureErr = err
			return simulate.Repetitions{}, false
		}
		if r, ok := cellOf(res, impl, k); ok {
			return again.repetitions(r)
		}
		return simulate.Repetitions{}, false
	})
	return remeasureErr
}

// cellOf returns the result of impl on k workers among res, if it ran.
func cellOf(res []runner.Result, impl string, k int) (runner.Result, bool) {
	for _, r := range res {
		if r.Impl == impl && r.Workers == k && r.Skipped == "" {
			return r, true
		}
	}
	return runner.Result{}, false
}
