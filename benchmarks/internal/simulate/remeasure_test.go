package simulate_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// TestRemeasure: an undisturbed check outside the tolerance is measured until it has
// simulate.Attempts attempts, and the attempt with the median error counts: a check that
// missed once passes if the others are within; one that misses every time still fails. A
// check within the tolerance, or disturbed, is not measured again; a disturbed attempt does
// not count in the median (of two, the one further from 0 does).
func TestRemeasure(t *testing.T) {
	s, c := uniformStudy(t)
	pred := func(p string) float64 {
		r, _ := s.Workloads[0].Prediction(p, 2)
		return r.MakespanNs
	}
	// reps measures p with the error e (predicted / measured - 1) under others' load.
	reps := func(p string, e, load float64) simulate.Repetitions {
		return simulate.Repetitions{TimesNs: []float64{pred(p) / (1 + e)}, UnitNs: [][]float64{{1, 1}}, OtherLoad: load}
	}
	first := map[string]simulate.Repetitions{
		"static":   reps("static", 0.05, 0),   // within: not measured again
		"dynamic":  reps("dynamic", -0.5, 0),  // a miss, then within twice: passes
		"guided":   reps("guided", 0.3, 0),    // misses every time: fails
		"stealing": reps("stealing", -0.4, 1), // disturbed: not measured again
		"auto":     reps("auto", -0.2, 0),     // a miss, a disturbed attempt, a pass: the miss counts
	}
	again := map[string][]simulate.Repetitions{
		"dynamic": {reps("dynamic", 0.02, 0), reps("dynamic", -0.1, 0)},
		"guided":  {reps("guided", 0.25, 0), reps("guided", 0.2, 0)},
		"auto":    {reps("auto", 0.5, 1), reps("auto", 0.1, 0)},
	}
	measured := validateAndRemeasure(t, s, c, first, again)
	if want := []string{"dynamic", "dynamic", "guided", "guided", "auto", "auto"}; !slices.Equal(measured, want) {
		t.Errorf("measured again %v; want %v", measured, want)
	}
	for _, tc := range []struct {
		p        string
		err      float64
		attempts []float64
	}{
		{"static", 0.05, nil},
		{"dynamic", -0.1, []float64{-0.5, 0.02, -0.1}},
		{"guided", 0.25, []float64{0.3, 0.25, 0.2}},
		{"stealing", -0.4, nil},
		{"auto", -0.2, []float64{-0.2, 0.5, 0.1}},
	} {
		i := slices.IndexFunc(s.Checks, func(ch simulate.Check) bool { return ch.Partitioner == tc.p })
		if i < 0 {
			t.Fatalf("no check of %s", tc.p)
		}
		ch := s.Checks[i]
		if math.Abs(ch.Error-tc.err) > 1e-9 || len(ch.Attempts) != len(tc.attempts) {
			t.Errorf("%s: error %g, attempts %v; want %g, %v", tc.p, ch.Error, ch.Attempts, tc.err, tc.attempts)
			continue
		}
		for j, e := range tc.attempts {
			if math.Abs(ch.Attempts[j]-e) > 1e-9 {
				t.Errorf("%s: attempts %v; want %v", tc.p, ch.Attempts, tc.attempts)
			}
		}
	}
	line := s.ValidationLine()
	for _, want := range []string{"FAIL: 2 of 4 undisturbed", "measured again after a miss, the median attempt counting: uniform/dynamic w=2 (-50.0% / +2.0% / -10.0%)", "outside: uniform/guided", "outside: uniform/auto"} {
		if !strings.Contains(line, want) {
			t.Errorf("ValidationLine() = %q; want it to contain %q", line, want)
		}
	}
}

// uniformStudy returns a study of uniform's 1,000 items at 2 workers, predicted at a unit of
// 1 ns and nothing else charged, with the workload's costs, and a tolerance of 15%.
func uniformStudy(t *testing.T) (*simulate.Study, simulate.Costs) {
	c := costsOf(t, "uniform", 1_000)
	m := simulate.Machine{SpinNs: 1, TakeNs: map[string][]float64{}}
	s := &simulate.Study{Machine: m, Workers: []int{2}, Tolerance: 0.15}
	s.Workloads = []simulate.Workload{simulate.Predict("uniform", c, 1, []float64{1, 1}, 0, m, s.Workers)}
	return s, c
}

// validateAndRemeasure validates s, 2 workers only, with first[impl] as each partitioner's
// measurement, and remeasures it, handing out again[impl] in order; it returns the cells
// measured again, in order, and fails the test when asked for more than again holds.
func validateAndRemeasure(t *testing.T, s *simulate.Study, c simulate.Costs, first map[string]simulate.Repetitions, again map[string][]simulate.Repetitions) (measured []string) {
	s.Validate("uniform", c, func(impl string, k int) (simulate.Repetitions, bool) {
		r, ok := first[impl]
		return r, ok && k == 2
	})
	s.Remeasure("uniform", c, func(impl string, k int) (simulate.Repetitions, bool) {
		measured = append(measured, impl)
		if k != 2 || len(again[impl]) == 0 {
			t.Fatalf("measured %s on %d workers again, more than planned", impl, k)
		}
		r := again[impl][0]
		again[impl] = again[impl][1:]
		return r, true
	})
	return measured
}

// TestRemeasureOneWorkload: the validation settles one workload at a time. Validate appends a
// workload's checks to those of the workloads before it, and Remeasure measures again only the
// named workload's checks, leaving a miss of another workload as it was.
func TestRemeasureOneWorkload(t *testing.T) {
	s, c := uniformStudy(t)
	tri := costsOf(t, "triangular", 1_000)
	s.Workloads = append(s.Workloads, simulate.Predict("triangular", tri, 1, []float64{1, 1}, 0, s.Machine, s.Workers))
	// off measures workload w's partitioner p with the error e (predicted / measured - 1).
	off := func(w int, p string, e float64) func(string, int) (simulate.Repetitions, bool) {
		return func(impl string, k int) (simulate.Repetitions, bool) {
			r, _ := s.Workloads[w].Prediction(p, 2)
			return simulate.Repetitions{TimesNs: []float64{r.MakespanNs / (1 + e)}, UnitNs: [][]float64{{1, 1}}}, impl == p && k == 2
		}
	}
	s.Validate("uniform", c, off(0, "dynamic", 0.5))
	s.Validate("triangular", tri, off(1, "guided", -0.5))
	if len(s.Checks) != 2 || s.Checks[0].Workload != "uniform" || s.Checks[1].Workload != "triangular" {
		t.Fatalf("checks %+v; want uniform's, then triangular's", s.Checks)
	}
	var measured []string
	s.Remeasure("triangular", tri, func(impl string, k int) (simulate.Repetitions, bool) {
		measured = append(measured, impl)
		return off(1, "guided", 0.01)(impl, k)
	})
	if want := []string{"guided", "guided"}; !slices.Equal(measured, want) {
		t.Errorf("measured again %v; want triangular's guided twice", measured)
	}
	if u, tr := s.Checks[0], s.Checks[1]; math.Abs(u.Error-0.5) > 1e-9 || u.Attempts != nil || math.Abs(tr.Error-0.01) > 1e-9 {
		t.Errorf("uniform/dynamic error %g, attempts %v; triangular/guided error %g; want 0.5 and none, 0.01", u.Error, u.Attempts, tr.Error)
	}
}
