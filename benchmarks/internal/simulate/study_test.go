package simulate_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// TestValidation: each measured repetition is checked against a simulation with the units of
// the trial made just before it, each worker at its goroutine's; a check holds the median of
// the errors. A machine that drifts
// from one repetition to the next passes when each repetition matches its own trial; a model
// off by half fails; a disturbed check does not count; a cell whose repetitions and trials do
// not pair up is not checked.
func TestValidation(t *testing.T) {
	c := costsOf(t, "uniform", 1_000)
	m := simulate.Machine{SpinNs: 1, TakeNs: map[string][]float64{}}
	s := &simulate.Study{Machine: m, Workers: []int{1, 2, 4}, Tolerance: 0.15}
	s.Workloads = append(s.Workloads, simulate.Predict("uniform", c, 1, []float64{1, 1}, 0, m, s.Workers))
	if got := len(s.Workloads[0].Predictions); got != 3*len(impls.Partitioners()) {
		t.Fatalf("%d predictions; want one per worker count and partitioner", got)
	}
	// predicted is the simulated time of impl on k workers with unit u.
	predicted := func(impl string, k int, u float64) float64 {
		if impl == "sequential" {
			impl = "static"
		}
		r, _ := simulate.Predict("uniform", c, 1, []float64{u, u}, 0, m, []int{k}).Prediction(impl, k)
		return r.MakespanNs
	}
	units := []float64{1, 3, 1.5, 2.5, 2} // the machine drifts; pairs shifted by one would be off by 27% or more
	// reps are repetitions off times the prediction, each after a trial whose goroutines ran
	// at u (static: at u and 2u, and a static split waits for the slower).
	reps := func(impl string, k int, off float64, others float64) simulate.Repetitions {
		r := simulate.Repetitions{OtherLoad: others}
		for _, u := range units {
			figures, slowest := []float64{u}, u
			if k == 2 {
				figures = []float64{u, u}
				if impl == "static" {
					figures, slowest = []float64{u, 2 * u}, 2*u
				}
			}
			r.UnitNs = append(r.UnitNs, figures)
			r.TimesNs = append(r.TimesNs, off*predicted(impl, k, slowest))
		}
		return r
	}
	s.Validate("uniform", c, func(impl string, k int) (simulate.Repetitions, bool) {
		switch impl {
		case "dynamic":
			return reps(impl, k, 2, 0), true // off by half, undisturbed: fails
		case "guided":
			return reps(impl, k, 3, 0.5), true // off, but disturbed: not counted
		case "stealing":
			r := reps(impl, k, 1, 0)
			r.UnitNs = r.UnitNs[1:] // a trial missing: no check
			return r, true
		}
		return reps(impl, k, 1.1, -1), true // each repetition within, load unknown: counted
	})
	if len(s.Checks) != 5 {
		t.Fatalf("%d checks; want 1 at 1 worker and 4 at 2 (none for stealing)", len(s.Checks))
	}
	seq := s.Checks[0]
	if seq.Partitioner != "inline" || seq.Workers != 1 || math.Abs(seq.Error-(1/1.1-1)) > 1e-9 ||
		seq.PredictedNs != predicted("sequential", 1, 2) || seq.MeasuredNs != 1.1*predicted("sequential", 1, 2) {
		t.Errorf("1-worker check %+v; want inline, error %.4f, the medians of the predictions and times", seq, 1/1.1-1)
	}
	for i, e := range seq.RepetitionErrors {
		if math.Abs(e-(1/1.1-1)) > 1e-9 || len(seq.RepetitionErrors) != len(units) {
			t.Errorf("1-worker check: repetition %d of %v has error %g; want %d errors of %.4f", i, seq.RepetitionErrors, e, len(units), 1/1.1-1)
		}
	}
	bad := s.Failed()
	if len(bad) != 1 || bad[0].Partitioner != "dynamic" || math.Abs(bad[0].Error+0.5) > 1e-9 {
		t.Errorf("Failed() = %+v; want dynamic alone, error -50%%", bad)
	}
	line := s.ValidationLine()
	for _, want := range []string{"simulator validation FAIL: 3 of 4 undisturbed", "1 more measured while others (processes, the host)", "outside: uniform/dynamic w=2"} {
		if !strings.Contains(line, want) {
			t.Errorf("ValidationLine() = %q; want it to contain %q", line, want)
		}
	}
	for i := range s.Checks {
		s.Checks[i].OtherLoad = 1
	}
	if line := s.ValidationLine(); !strings.HasPrefix(line, "simulator validation INCONCLUSIVE: all 5") {
		t.Errorf("every check disturbed: ValidationLine() = %q; want INCONCLUSIVE", line)
	}
}

// TestWorkloadTakes: takes are calibrated on a range of the workload's length, for every
// partitioner and number of goroutines; a workload's predictions, and its validation, charge
// its own takes instead of the machine's.
func TestWorkloadTakes(t *testing.T) {
	takes := simulate.CalibrateTakes(1000, 2, nil)
	for _, p := range impls.Partitioners() {
		if ts := takes[p.Name]; len(ts) != 2 || !(ts[0] > 0 && ts[1] > 0) {
			t.Errorf("CalibrateTakes(1000, 2)[%s] = %v; want 2 positive costs", p.Name, ts)
		}
	}
	c := costsOf(t, "uniform", 1_000)
	m := simulate.Machine{SpinNs: 1, TakeNs: map[string][]float64{}}
	free := simulate.Predict("uniform", c, 1, []float64{1, 1}, 0, m, []int{2})
	m.TakeNs = map[string][]float64{"dynamic": {1000, 1000}}
	dear := simulate.Predict("uniform", c, 1, []float64{1, 1}, 0, m, []int{2})
	a, _ := free.Prediction("dynamic", 2)
	b, _ := dear.Prediction("dynamic", 2)
	if b.MakespanNs < a.MakespanNs+8*1000 {
		t.Errorf("dynamic with 1 µs takes: makespan %g; want at least %g, 8 takes a worker more", b.MakespanNs, a.MakespanNs+8*1000)
	}
	s := &simulate.Study{Machine: simulate.Machine{SpinNs: 1, TakeNs: map[string][]float64{}}, Workers: []int{2}, Tolerance: 0.15}
	s.Workloads = []simulate.Workload{dear}
	s.Validate("uniform", c, func(impl string, k int) (simulate.Repetitions, bool) {
		return simulate.Repetitions{TimesNs: []float64{b.MakespanNs}, UnitNs: [][]float64{{1, 1}}}, impl == "dynamic"
	})
	if len(s.Checks) != 1 || s.Checks[0].Error != 0 {
		t.Errorf("validation of dynamic with the workload's takes: %+v; want one check with error 0", s.Checks)
	}
}

// TestValidationBrackets: a repetition with a trial on either side is predicted with the mean
// of the two simulations, so a machine that changed speed during it, from a unit of 1 to 2,
// is checked against 1.5; its drift is recorded. A cell whose after-trials do not pair up with
// its repetitions is not checked.
func TestValidationBrackets(t *testing.T) {
	c := costsOf(t, "uniform", 1_000)
	m := simulate.Machine{SpinNs: 1, TakeNs: map[string][]float64{}}
	s := &simulate.Study{Machine: m, Workers: []int{2}, Tolerance: 0.15}
	s.Workloads = []simulate.Workload{simulate.Predict("uniform", c, 1, []float64{1, 1}, 0, m, s.Workers)}
	at := func(u float64) float64 {
		r, _ := simulate.Predict("uniform", c, 1, []float64{u, u}, 0, m, []int{2}).Prediction("dynamic", 2)
		return r.MakespanNs
	}
	s.Validate("uniform", c, func(impl string, k int) (simulate.Repetitions, bool) {
		r := simulate.Repetitions{TimesNs: []float64{at(1.5), at(1.5), at(1.5)},
			UnitNs:      [][]float64{{1, 1}, {1, 1}, {1, 1}},
			AfterUnitNs: [][]float64{{2, 2}, {2, 2}, {2, 2}}}
		if impl == "guided" {
			r.AfterUnitNs = r.AfterUnitNs[1:]
		}
		return r, impl == "dynamic" || impl == "guided"
	})
	if len(s.Checks) != 1 {
		t.Fatalf("checks %+v; want one, for dynamic (guided's trials do not pair up)", s.Checks)
	}
	ch := s.Checks[0]
	if math.Abs(ch.Error) > 1e-9 || ch.PredictedNs != (at(1)+at(2))/2 {
		t.Errorf("dynamic, units 1 before and 2 after, measured at 1.5: predicted %g, error %g; want %g, 0", ch.PredictedNs, ch.Error, (at(1)+at(2))/2)
	}
	if want := at(2)/at(1) - 1; len(ch.Drifts) != 3 || math.Abs(ch.Drifts[0]-want) > 1e-9 {
		t.Errorf("drifts %v; want 3 of %g", ch.Drifts, want)
	}
}

// TestValidationCalls: a 2-worker repetition is predicted with the fork-join calls timed next
// to it, as the mean of simulations spread over their helper starts. With half the calls'
// helpers at once and half so late that the caller runs both static slots, a static call is
// predicted at the mean of half and all of the work; the check records the median helper
// start it charged. A cell whose call batches do not pair up with its repetitions is not
// checked, and 1 worker, which runs inline, charges no calls.
func TestValidationCalls(t *testing.T) {
	const n = 1_000
	c := costsOf(t, "uniform", n)
	m := simulate.Machine{SpinNs: 1, TakeNs: map[string][]float64{}}
	s := &simulate.Study{Machine: m, Workers: []int{1, 2}, Tolerance: 0.15}
	s.Workloads = []simulate.Workload{simulate.Predict("uniform", c, 1, []float64{1, 1}, 0, m, s.Workers)}
	late := 2 * c.Total() // after slot 0 ends, at c[n/2]
	var calls []simulate.CallTimes
	for i := range 32 {
		calls = append(calls, simulate.CallTimes{ForkNs: float64(i%2) * late})
	}
	want := (c[n/2] + c.Total()) / 2
	s.Validate("uniform", c, func(impl string, k int) (simulate.Repetitions, bool) {
		r := simulate.Repetitions{TimesNs: []float64{want, want}, UnitNs: [][]float64{{1, 1}, {1, 1}},
			CallsBefore: [][]simulate.CallTimes{calls, calls}}
		switch impl {
		case "sequential":
			r = simulate.Repetitions{TimesNs: []float64{c.Total()}, UnitNs: [][]float64{{1}}, CallsBefore: [][]simulate.CallTimes{calls}}
		case "dynamic":
			r.CallsBefore = r.CallsBefore[1:]
		}
		return r, impl == "static" || impl == "dynamic" || impl == "sequential"
	})
	if len(s.Checks) != 2 {
		t.Fatalf("checks %+v; want inline and static (dynamic's calls do not pair up)", s.Checks)
	}
	if inline := s.Checks[0]; inline.Error != 0 || inline.ForkNs != 0 {
		t.Errorf("inline check %+v; want error 0 and no helper starts", inline)
	}
	if st := s.Checks[1]; math.Abs(st.Error) > 1e-9 || st.ForkNs != late/2 {
		t.Errorf("static check with calls half late: predicted %g, error %g, helper starts %g; want %g, 0, %g", st.PredictedNs, st.Error, st.ForkNs, want, float64(late/2))
	}
}

// TestValidationTrialsNextToRepetitions: a 2-worker repetition is predicted with the call
// trials and the transfer trials made next to it, the mean of the simulations with the trials
// before and with those after; the check records their medians. With calls (or transfers)
// free before and dear after, a dynamic call is predicted at the mean of the two, whatever the
// workload's Machine charges. A cell whose trials do not pair up with its repetitions is not
// checked.
func TestValidationTrialsNextToRepetitions(t *testing.T) {
	c := costsOf(t, "uniform", 1_000)
	const dear = 1_000
	for _, tc := range []struct {
		name string
		set  func(m *simulate.Machine, ns float64)
		reps func(r *simulate.Repetitions, before, after []float64)
		got  func(ch simulate.Check) float64
	}{
		{"calls", func(m *simulate.Machine, ns float64) { m.CallNs = ns },
			func(r *simulate.Repetitions, before, after []float64) { r.CallNsBefore, r.CallNsAfter = before, after },
			func(ch simulate.Check) float64 { return ch.CallNs }},
		{"transfers", func(m *simulate.Machine, ns float64) { m.TransferNs = ns },
			func(r *simulate.Repetitions, before, after []float64) {
				r.TransferNsBefore, r.TransferNsAfter = before, after
			},
			func(ch simulate.Check) float64 { return ch.TransferNs }},
	} {
		m := simulate.Machine{SpinNs: 1, TakeNs: map[string][]float64{}}
		tc.set(&m, 5_000)
		s := &simulate.Study{Machine: m, Workers: []int{2}, Tolerance: 0.15}
		s.Workloads = []simulate.Workload{simulate.Predict("uniform", c, 1, []float64{1, 1}, 0, m, s.Workers)}
		at := func(ns float64) float64 {
			mc := m
			tc.set(&mc, ns)
			r, _ := simulate.Predict("uniform", c, 1, []float64{1, 1}, 0, mc, []int{2}).Prediction("dynamic", 2)
			return r.MakespanNs
		}
		if at(dear) <= at(0) {
			t.Fatalf("dynamic with %d ns %s: %g; want more than with free ones, %g", dear, tc.name, at(dear), at(0))
		}
		want := (at(0) + at(dear)) / 2
		s.Validate("uniform", c, func(impl string, k int) (simulate.Repetitions, bool) {
			r := simulate.Repetitions{TimesNs: []float64{want, want}, UnitNs: [][]float64{{1, 1}, {1, 1}}, AfterUnitNs: [][]float64{{1, 1}, {1, 1}}}
			after := []float64{dear, dear}
			if impl == "guided" {
				after = after[1:]
			}
			tc.reps(&r, []float64{0, 0}, after)
			return r, impl == "dynamic" || impl == "guided"
		})
		if len(s.Checks) != 1 {
			t.Fatalf("%s: checks %+v; want one, for dynamic (guided's trials do not pair up)", tc.name, s.Checks)
		}
		if ch := s.Checks[0]; math.Abs(ch.Error) > 1e-9 || tc.got(ch) != dear/2 {
			t.Errorf("dynamic, %s free before and %d ns after: predicted %g, error %g, median trial %g; want %g, 0, %d", tc.name, dear, ch.PredictedNs, ch.Error, tc.got(ch), want, dear/2)
		}
	}
}

// TestValidationColdCalls: a repetition's first call is predicted with the cold calls, the
// others with the warm ones. With warm calls whose helper starts at once and cold ones whose
// helper comes after the caller has run both static slots, a workload of 1 call per repetition
// is predicted at all of the work, one of 4 calls at a quarter of all and three quarters of
// half; the check records the median cold helper start.
func TestValidationColdCalls(t *testing.T) {
	const n = 1_000
	c := costsOf(t, "uniform", n)
	m := simulate.Machine{SpinNs: 1, TakeNs: map[string][]float64{}}
	late := 2 * c.Total()
	var calls []simulate.CallTimes
	for i := range 8 {
		calls = append(calls, simulate.CallTimes{ForkNs: late, Cold: i < 3})
	}
	for i := 3; i < 8; i++ {
		calls[i].ForkNs = 0
	}
	half, all := c[n/2], c.Total()
	for _, tc := range []struct {
		calls int
		want  float64
	}{{1, all}, {4, (all + 3*half) / 4}} {
		s := &simulate.Study{Machine: m, Workers: []int{2}, Tolerance: 0.15}
		s.Workloads = []simulate.Workload{simulate.Predict("uniform", c, tc.calls, []float64{1, 1}, 0, m, s.Workers)}
		s.Validate("uniform", c, func(impl string, k int) (simulate.Repetitions, bool) {
			return simulate.Repetitions{TimesNs: []float64{tc.want}, UnitNs: [][]float64{{1, 1}}, CallsBefore: [][]simulate.CallTimes{calls}}, impl == "static"
		})
		if len(s.Checks) != 1 {
			t.Fatalf("%d calls: checks %+v; want one, for static", tc.calls, s.Checks)
		}
		if ch := s.Checks[0]; math.Abs(ch.Error) > 1e-9 || ch.ColdForkNs != late || ch.ForkNs != 0 {
			t.Errorf("%d calls a repetition: predicted %g, error %g, helper starts %g warm, %g cold; want %g, 0, 0 and %g", tc.calls, ch.PredictedNs, ch.Error, ch.ForkNs, ch.ColdForkNs, tc.want, late)
		}
	}
}

func TestFormatNs(t *testing.T) {
	for _, tc := range []struct {
		ns   float64
		want string
	}{{0, "0.00ns"}, {12.345, "12.3ns"}, {999, "999ns"}, {1000, "1.00µs"}, {45_678, "45.7µs"}, {2.5e6, "2.50ms"}, {3.21e9, "3.21s"}} {
		if got := simulate.FormatNs(tc.ns); got != tc.want {
			t.Errorf("FormatNs(%g) = %q; want %q", tc.ns, got, tc.want)
		}
	}
}
