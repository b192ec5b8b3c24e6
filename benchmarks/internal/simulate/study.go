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
	Machine   Machine    `json:"machine"`
	Workers   []int      `json:"workers"`
	Workloads []Workload `json:"workloads"`
	Tolerance float64    `json:"tolerance"` // largest relative error a check may have
	Checks    []Check    `json:"validation"`
}

// Workload holds one workload's calibration and predictions.
type Workload struct {
	Name  string `json:"name"`
	N     int    `json:"n"`
	Calls int    `json:"calls"`
	// UnitNs[k-1] is the time of one cost unit with k cores running the workload at once.
	UnitNs []float64 `json:"unit_ns"`
	// RestartNs is what a chunk that does not continue its worker's previous range costs
	// beyond its items (see Calibrator.RestartNs).
	RestartNs float64 `json:"restart_ns"`
	// UnitTrialsNs[k-1] are the calibration trials that UnitNs[k-1] was chosen from, in order.
	UnitTrialsNs [][]float64 `json:"unit_trials_ns,omitempty"`
	// SpinRatio is UnitNs[0] over the time of a Spin iteration: how far the workload's cost
	// model is from its nominal unit on this machine (1 for a perfect model).
	SpinRatio   float64  `json:"spin_ratio"`
	Predictions []Result `json:"predictions"` // per call, for each worker count and partitioner
}

// Check compares a prediction with a measurement, both per call.
type Check struct {
	Workload    string  `json:"workload"`
	Partitioner string  `json:"partitioner"` // "inline" for 1 worker: pfor runs one chunk whatever the partitioner
	Workers     int     `json:"workers"`
	PredictedNs float64 `json:"predicted_ns"`
	MeasuredNs  float64 `json:"measured_ns"`
	Error       float64 `json:"error"` // predicted / measured - 1
	// OtherLoad is how many CPUs others kept busy while the workload was measured (other
	// processes, and on a virtual machine the host: see package load), -1 if unknown. A check with more than Disturbed is not counted in the verdict.
	OtherLoad float64 `json:"other_load_cores"`
}

// Disturbed is the load of others, in CPUs, above which a measurement does not count
// in the validation's verdict: the model describes a machine that nothing else uses, and on
// 2 cores a quarter of a CPU taken by others already moves a 2-worker time by more than the
// tolerance.
const Disturbed = 0.25

// disturbed reports whether c's measurement was disturbed by others.
func (c Check) disturbed() bool { return c.OtherLoad > Disturbed }

// Predict simulates every partitioner on every worker count, charging restartNs per restart,
// with the unit cost for
// min(workers, len(unit)) busy cores: beyond the cores that calibration could use, the cost
// of a unit is assumed to stay as it was with all of them busy. Efficiency refers to the
// sequential time, the total cost at unit[0].
func Predict(name string, c Costs, calls int, unit []float64, restartNs float64, m Machine, workers []int) Workload {
	w := Workload{Name: name, N: c.Len(), Calls: calls, UnitNs: unit, RestartNs: restartNs, SpinRatio: unit[0] / m.SpinNs}
	for _, k := range workers {
		u := unit[min(k, len(unit))-1]
		for _, p := range impls.Partitioners() {
			model := m.Model(p.Name, k, u)
			model.RestartNs = restartNs
			model.SeqNs = c.Total() * unit[0]
			w.Predictions = append(w.Predictions, Run(c, p, k, model))
		}
	}
	return w
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

// Validate checks the predictions for 1 and 2 workers against measurements: measured returns
// the time per call of an implementation ("sequential" for 1 worker, where pfor runs inline;
// a partitioner's name for 2), the CPUs other processes kept busy meanwhile (-1 if unknown),
// and reports whether it ran. The caller passes the median of its repetitions, as
// calibration uses the median of its trials, made between them (see Calibrator).
func (s *Study) Validate(measured func(workload, impl string, workers int) (ns, others float64, ok bool)) {
	s.Checks = nil
	for _, w := range s.Workloads {
		if r, ok := w.Prediction("static", 1); ok {
			if m, others, ok := measured(w.Name, "sequential", 1); ok {
				s.Checks = append(s.Checks, newCheck(w.Name, "inline", 1, r.MakespanNs, m, others))
			}
		}
		for _, p := range impls.Partitioners() {
			r, ok := w.Prediction(p.Name, 2)
			if !ok {
				continue
			}
			if m, others, ok := measured(w.Name, p.Name, 2); ok {
				s.Checks = append(s.Checks, newCheck(w.Name, p.Name, 2, r.MakespanNs, m, others))
			}
		}
	}
}

func newCheck(w, p string, k int, pred, meas, others float64) Check {
	return Check{Workload: w, Partitioner: p, Workers: k, PredictedNs: pred, MeasuredNs: meas, Error: pred/meas - 1, OtherLoad: others}
}

// Failed returns the undisturbed checks whose error exceeds the tolerance.
func (s *Study) Failed() []Check {
	var bad []Check
	for _, c := range s.Checks {
		if !c.disturbed() && math.Abs(c.Error) > s.Tolerance {
			bad = append(bad, c)
		}
	}
	return bad
}

// ValidationLine summarises the checks in one line (plus one line per failed check): PASS
// if every undisturbed check is within the tolerance, FAIL if one is not, INCONCLUSIVE if
// every measurement was disturbed.
func (s *Study) ValidationLine() string {
	if len(s.Checks) == 0 {
		return "simulator validation: nothing to check (needs 1 or 2 in -workers)"
	}
	var clean []Check
	for _, c := range s.Checks {
		if !c.disturbed() {
			clean = append(clean, c)
		}
	}
	disturbed := len(s.Checks) - len(clean)
	if len(clean) == 0 {
		return fmt.Sprintf("simulator validation INCONCLUSIVE: all %d measurements at 1 and 2 workers ran while others (processes, the host) kept over %.2f CPUs busy; worst error %s",
			len(s.Checks), Disturbed, describe(worst(s.Checks)))
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
		fmt.Fprintf(&b, "; %d more measured while others (processes, the host) kept over %.2f CPUs busy are not counted", disturbed, Disturbed)
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
