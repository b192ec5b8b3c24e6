package simulate

import (
	"fmt"
	"math"
	"strings"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
)

// Study is a scaling study: predictions for each workload, partitioner and number of
// workers, and their check against measurements.
type Study struct {
	Machine   Machine    `json:"machine"`   // the costs measured apart from the workloads
	Workers   []int      `json:"workers"`   // the worker counts predicted
	Workloads []Workload `json:"workloads"` // each workload's calibration and predictions
	Tolerance float64    `json:"tolerance"` // largest relative error a check may have
	// DisturbedCores is the load of others, in CPUs, above which a check does not count in
	// the verdict; 0 means Disturbed.
	DisturbedCores float64 `json:"disturbed_cores,omitempty"`
	Checks         []Check `json:"validation"` // predictions against measurements at the measured worker counts
	// ReplayedFrom, if set, names the results file whose recorded calibration the predictions
	// were made from again; such a study measured nothing and has no checks.
	ReplayedFrom string `json:"replayed_from,omitempty"`
	// measured[i] are the repetitions Checks[i] was made of, as Validate was given them.
	measured []Repetitions
}

// Workload holds one workload's calibration and predictions.
type Workload struct {
	Name  string `json:"name"`
	N     int    `json:"n"`     // items per call
	Calls int    `json:"calls"` // calls per repetition
	// UnitNs[k-1] is the time of one cost unit with k cores running the workload at once.
	UnitNs []float64 `json:"unit_ns"`
	// RestartNs is what a chunk that does not continue its worker's previous range costs
	// beyond its items (see Calibrator.RestartNs).
	RestartNs float64 `json:"restart_ns"`
	// UnitTrialsNs[k-1] are the calibration trials that UnitNs[k-1] was chosen from, in order.
	UnitTrialsNs [][]float64 `json:"unit_trials_ns,omitempty"`
	// RestartTrialsNs are the restart trials' figures that RestartNs comes from, in order,
	// each with its chunk's take (see Calibrator.RestartNs).
	RestartTrialsNs []float64 `json:"restart_trials_ns,omitempty"`
	// RestartTransfersNs are the transfer trials made just after each restart trial, in order,
	// and RestartTakeNs the take that RestartNs leaves out (see Calibrator.RestartNs). Where
	// there are both, a check charges each repetition the restart of the trials made in its
	// state of the machine (see restartAt).
	RestartTransfersNs []float64 `json:"restart_transfers_ns,omitempty"`
	RestartTakeNs      float64   `json:"restart_take_ns,omitempty"`
	// CallTrialsNs are the call trials' figures that Machine.CallNs comes from, in order (see
	// Calibrator.CallTrial).
	CallTrialsNs []float64 `json:"call_trials_ns,omitempty"`
	// PieceTrialsNs are the piece trials' figures that Machine.PieceNs comes from, in order
	// (see Calibrator.PieceTrial).
	PieceTrialsNs []float64 `json:"piece_trials_ns,omitempty"`
	// TransferTrialsNs are the transfer trials' figures that Machine.TransferNs comes from,
	// made next to its repetitions and its restart trials, in order (see
	// Calibrator.TransferTrial).
	TransferTrialsNs []float64 `json:"transfer_trials_ns,omitempty"`
	// Machine holds the machine's costs as this workload's predictions charge them: the takes
	// on a range of its length (see CalibrateTakes), and the call, the piece, the transfer
	// and the start, fork and join timed during its rounds (see Calibrator.CallNs, PieceNs,
	// TransferNs and ForkJoin), where the caller calibrated them.
	Machine Machine `json:"machine"`
	// SpinRatio is UnitNs[0] over the time of a Spin iteration: how far the workload's cost
	// model is from its nominal unit on the machine that ran it (1 for a perfect model).
	SpinRatio float64 `json:"spin_ratio"`
	// Neighbour, if not nil, is the busy process the predictions were made beside; each is
	// then the mean over Phases starts in its rotation (see PredictBeside).
	Neighbour   *Neighbour `json:"neighbour,omitempty"`
	Predictions []Result   `json:"predictions"` // per call, for each worker count and partitioner
}

// Check compares predictions with measurements, per call. Each measured repetition is
// predicted with the units of the calibration trials made just before and just after it (see
// Repetitions); the check holds the medians of the two series and the median of the
// repetitions' errors.
type Check struct {
	Workload    string  `json:"workload"`
	Partitioner string  `json:"partitioner"` // "inline" for 1 worker: pfor runs one chunk whatever the partitioner
	Workers     int     `json:"workers"`
	PredictedNs float64 `json:"predicted_ns"` // the median of the repetitions' predictions
	MeasuredNs  float64 `json:"measured_ns"`  // the median repetition
	// Error is the median over the repetitions of predicted / measured - 1: a repetition made
	// while the machine ran slow is checked against a unit calibrated while it ran slow.
	Error float64 `json:"error"`
	// RepetitionErrors are the repetitions' errors, in order.
	RepetitionErrors []float64 `json:"repetition_errors,omitempty"`
	// Drifts are, for repetitions with a trial on either side, the prediction with the trial
	// after over the one with the trial before, less 1: how far the machine's speed moved
	// while the repetition ran.
	Drifts []float64 `json:"repetition_drifts,omitempty"`
	// ForkNs is the median helper start of the fork-join calls the repetitions were
	// predicted with; 0 if they were predicted with the workload's Machine.
	ForkNs float64 `json:"fork_ns,omitempty"`
	// ColdForkNs is the median helper start of the cold calls (see Workload.runCalls), the
	// first call of each repetition's prediction; 0 if there were none.
	ColdForkNs float64 `json:"cold_fork_ns,omitempty"`
	// CallNs is the median of the call trials the repetitions were predicted with (see
	// Repetitions); 0 if they were predicted with the workload's Machine.
	CallNs float64 `json:"call_ns,omitempty"`
	// TransferNs is the median of the transfer trials the repetitions were predicted with (see
	// Repetitions); 0 if they were predicted with the workload's Machine.
	TransferNs float64 `json:"transfer_ns,omitempty"`
	// OtherLoad is how many CPUs others kept busy while the workload was measured (other
	// processes, and on a virtual machine the host: see package load), -1 if unknown. A check with more
	// than the study's DisturbedCores is not counted in the verdict.
	OtherLoad float64 `json:"other_load_cores"`
	// Attempts are the errors of every time the check was measured, the first's first, if it
	// was measured again (see Study.Remeasure); the check is the median attempt.
	Attempts []float64 `json:"attempts,omitempty"`
	// Pooled is how many measurements of the cell the repetitions come from, if more than one:
	// the cell was measured again while the median of their errors was uncertain (see
	// Precision).
	Pooled int `json:"pooled,omitempty"`
}

// Disturbed is the load of others, in CPUs, above which a measurement does not count
// in the validation's verdict: the model describes a machine that nothing else uses, and on
// 2 cores a quarter of a CPU taken by others already moves a 2-worker time by more than the
// tolerance.
const Disturbed = 0.25

// Disturbs reports whether others disturbed c's measurement: whether they kept more than the
// study's DisturbedCores busy.
func (s *Study) Disturbs(c Check) bool { return c.OtherLoad > s.disturbedCores() }

func (s *Study) disturbedCores() float64 {
	if s.DisturbedCores == 0 {
		return Disturbed
	}
	return s.DisturbedCores
}

// Predict simulates every partitioner on every worker count, charging restartNs per restart
// and the costs of m (which the caller may have calibrated for this workload, see
// CalibrateTakes and Calibrator.ForkJoin; it is kept as the Workload's Machine),
// with the unit cost for
// min(workers, len(unit)) busy cores: beyond the cores that calibration could use, the cost
// of a unit is assumed to stay as it was with all of them busy. Efficiency refers to the
// sequential time, the total cost at unit[0].
func Predict(name string, c Costs, calls int, unit []float64, restartNs float64, m Machine, workers []int) Workload {
	return predict(Workload{Name: name, N: c.Len(), Calls: calls, UnitNs: unit, RestartNs: restartNs, Machine: m, SpinRatio: unit[0] / m.SpinNs}, c, workers)
}

// PredictBeside is Predict with the workers sharing their cores with nb, a busy process
// (see Neighbour): each prediction is the mean of Phases simulations, the call starting at
// Phases points spread evenly over a turn of the rotation, nb's PhaseNs ignored. Its
// makespan, steals and chunks are the means; its efficiency is the sequential time over
// workers times the mean makespan. The sequential time is the total cost at unit[0], with no
// neighbour: a sequential loop and the neighbour run on two cores of their own. It panics if
// nb.SliceNs is not above 0 or nb.Cores is below 1.
func PredictBeside(name string, c Costs, calls int, unit []float64, restartNs float64, m Machine, workers []int, nb Neighbour) Workload {
	if !(nb.SliceNs > 0) || nb.Cores < 1 {
		panic(fmt.Sprintf("simulate: PredictBeside(%s): slice %g ns on %d cores", name, nb.SliceNs, nb.Cores))
	}
	return predict(Workload{Name: name, N: c.Len(), Calls: calls, UnitNs: unit, RestartNs: restartNs, Machine: m, SpinRatio: unit[0] / m.SpinNs, Neighbour: &nb}, c, workers)
}

func predict(w Workload, c Costs, workers []int) Workload {
	unit := w.UnitNs
	for _, k := range workers {
		u := unit[min(k, len(unit))-1]
		for _, p := range impls.Partitioners() {
			w.Predictions = append(w.Predictions, w.run(c, p, k, []float64{u}))
		}
	}
	return w
}

// run simulates partitioner p on k workers over w's costs c, with w's Machine, worker j at
// unitNs[j mod len(unitNs)] per cost unit.
func (w Workload) run(c Costs, p impls.Partitioner, k int, unitNs []float64) Result {
	model := w.Machine.Model(p.Name, k, mean(unitNs))
	if len(unitNs) > 1 {
		model.WorkerUnitNs = unitNs
	}
	model.RestartNs = w.RestartNs
	model.SeqNs = c.Total() * w.UnitNs[0]
	if w.Neighbour == nil {
		return Run(c, p, k, model)
	}
	var mean Result
	for j := range Phases {
		model.Neighbour = w.Neighbour.phased(j, k+1)
		r := Run(c, p, k, model)
		mean.MakespanNs += r.MakespanNs / Phases
		mean.Imbalance += r.Imbalance / Phases
		mean.Steals += r.Steals
		mean.FailedSteals += r.FailedSteals
		mean.Chunks += r.Chunks
	}
	mean.Partitioner, mean.Workers = p.Name, k
	mean.Steals, mean.FailedSteals, mean.Chunks = mean.Steals/Phases, mean.FailedSteals/Phases, mean.Chunks/Phases
	mean.Efficiency = model.SeqNs / (float64(k) * mean.MakespanNs)
	return mean
}

// Prediction returns the prediction for partitioner p with k workers, and reports whether
// there is one.
func (w Workload) Prediction(p string, k int) (Result, bool) {
	for _, r := range w.Predictions {
		if r.Partitioner == p && r.Workers == k {
			return r, true
		}
	}
	return Result{}, false
}

// Validate checks the predictions of the study's workload named name for 1 and 2 workers
// against measurements, and appends the checks to the study's: measured returns the
// repetitions of an implementation on the workload ("sequential" for 1 worker, where pfor runs
// inline; a partitioner's name for 2) and reports whether it ran; c are the workload's prefix
// costs. Call it once per workload, and Remeasure right after it, before the next workload's
// round (see Remeasure). Each repetition is predicted by simulating it with the units of its
// own trials, each worker at its goroutine's, so that the check compares the model with the
// machine as it was at that moment: on a shared virtual machine the speed of one loop moves by
// up to a factor of two in states that last a second or more, and one core may be slower than
// the other (see Calibrator). The prediction is the mean of the simulations with the trial
// before and the trial after: when the machine changes speed during a repetition, the two
// trials bracket it. (The trial before alone missed the tolerance in a check that the mean
// kept within it.) With
// 2 workers, the start, fork and join it charges are those of the fork-join calls timed
// next to the repetition (see Repetitions and Workload.runCalls): the helpers' start moves
// with the machine's state too.
func (s *Study) Validate(name string, c Costs, measured func(impl string, workers int) (Repetitions, bool)) {
	w, ok := s.workload(name)
	if !ok || c == nil {
		return
	}
	ps := impls.Partitioners()
	add := func(p impls.Partitioner, k int) {
		if reps, ok := measured(cellImpl(p, k), k); ok {
			if chk, ok := w.check(c, p, k, reps); ok {
				s.Checks, s.measured = append(s.Checks, chk), append(s.measured, reps)
			}
		}
	}
	// One worker runs inline: any partitioner does.
	add(ps[0], 1)
	for _, p := range ps {
		add(p, 2)
	}
}

// Failed returns the undisturbed checks whose error exceeds the tolerance.
func (s *Study) Failed() []Check {
	var bad []Check
	for _, c := range s.Checks {
		if !s.Disturbs(c) && math.Abs(c.Error) > s.Tolerance {
			bad = append(bad, c)
		}
	}
	return bad
}

// ValidationLine summarises the checks in one line (plus one line per failed check): PASS
// if every undisturbed check is within the tolerance, FAIL if one is not, INCONCLUSIVE if
// every measurement was disturbed. It names the checks measured again (see Remeasure): those
// pooled, with their repetitions, and those measured again after a miss, with each attempt's
// error.
func (s *Study) ValidationLine() string {
	switch {
	case len(s.Checks) == 0 && s.ReplayedFrom != "":
		return "simulator validation: none (predicted again from the calibration recorded in " + s.ReplayedFrom + "; nothing measured)"
	case len(s.Checks) == 0:
		return "simulator validation: nothing to check (needs 1 or 2 in -workers)"
	}
	var clean []Check
	for _, c := range s.Checks {
		if !s.Disturbs(c) {
			clean = append(clean, c)
		}
	}
	disturbed := len(s.Checks) - len(clean)
	if len(clean) == 0 {
		return fmt.Sprintf("simulator validation INCONCLUSIVE: all %d measurements at 1 and 2 workers ran while others (processes, the host) kept over %.2f CPUs busy; worst error %s",
			len(s.Checks), s.disturbedCores(), describe(worst(s.Checks)))
	}
	bad := s.Failed()
	verdict := "PASS"
	if len(bad) > 0 {
		verdict = "FAIL"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "simulator validation %s: %d of %d undisturbed predictions at 1 and 2 workers within ±%.0f%% of measured; worst %s",
		verdict, len(clean)-len(bad), len(clean), 100*s.Tolerance, describe(worst(clean)))
	if disturbed > 0 {
		fmt.Fprintf(&b, "; %d more measured while others (processes, the host) kept over %.2f CPUs busy are not counted", disturbed, s.disturbedCores())
	}
	var pooled []string
	for _, c := range s.Checks {
		if c.Pooled > 1 {
			pooled = append(pooled, fmt.Sprintf("%s/%s w=%d (%d measurements, %d repetitions)", c.Workload, c.Partitioner, c.Workers, c.Pooled, len(c.RepetitionErrors)))
		}
	}
	if len(pooled) > 0 {
		fmt.Fprintf(&b, "; measured again and pooled while the median was uncertain: %s", strings.Join(pooled, ", "))
	}
	var again []string
	for _, c := range s.Checks {
		if len(c.Attempts) > 1 {
			again = append(again, fmt.Sprintf("%s/%s w=%d (%s)", c.Workload, c.Partitioner, c.Workers, FormatErrors(c.Attempts)))
		}
	}
	if len(again) > 0 {
		fmt.Fprintf(&b, "; measured again after a miss, the median attempt counting: %s", strings.Join(again, ", "))
	}
	for _, c := range bad {
		fmt.Fprintf(&b, "\n  outside: %s", describe(c))
	}
	return b.String()
}

// worst returns the check with the largest error; cs is not empty.
func worst(cs []Check) Check {
	w := cs[0]
	for _, c := range cs {
		if math.Abs(c.Error) > math.Abs(w.Error) {
			w = c
		}
	}
	return w
}

func describe(c Check) string {
	return fmt.Sprintf("%s/%s w=%d (predicted %s, measured %s, %+.1f%%)",
		c.Workload, c.Partitioner, c.Workers, FormatNs(c.PredictedNs), FormatNs(c.MeasuredNs), 100*c.Error)
}

// FormatNs formats a duration in nanoseconds with three significant digits and a unit.
func FormatNs(ns float64) string {
	units := []struct {
		div  float64
		name string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}}
	for _, u := range units {
		if math.Abs(ns) >= u.div || u.div == 1 {
			v := ns / u.div
			switch {
			case math.Abs(v) >= 100:
				return fmt.Sprintf("%.0f%s", v, u.name)
			case math.Abs(v) >= 10:
				return fmt.Sprintf("%.1f%s", v, u.name)
			default:
				return fmt.Sprintf("%.2f%s", v, u.name)
			}
		}
	}
	return ""
}
