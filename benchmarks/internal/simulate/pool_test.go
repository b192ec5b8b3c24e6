package simulate_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// TestRemeasurePools: an undisturbed check whose repetitions scatter so widely that their
// median is uncertain (a standard error above simulate.Precision of the tolerance) is measured
// again and its repetitions pooled, until the median is certain or simulate.Pooled
// measurements are pooled, whether the check is within the tolerance or not; only then is a
// check outside measured again in attempts, each pooled the same way. A check whose
// repetitions agree, or that was disturbed, is not measured again.
func TestRemeasurePools(t *testing.T) {
	s, c := uniformStudy(t)
	// reps measures p with the repetition errors errs (predicted / measured - 1) under others'
	// load.
	reps := func(p string, load float64, errs ...float64) simulate.Repetitions {
		r, _ := s.Workloads[0].Prediction(p, 2)
		out := simulate.Repetitions{OtherLoad: load}
		for _, e := range errs {
			out.TimesNs = append(out.TimesNs, r.MakespanNs/(1+e))
			out.UnitNs = append(out.UnitNs, []float64{1, 1})
		}
		return out
	}
	first := map[string]simulate.Repetitions{
		"static":   reps("static", 0, 0.01, 0.02, 0, -0.01, 0.01),   // agree: not measured again
		"dynamic":  reps("dynamic", 0, -0.3, 0.2, -0.2, 0.3, -0.25), // scattered, outside: pooled until certain, then within
		"guided":   reps("guided", 0, -0.3, 0.3, -0.2, 0.2, 0),      // scattered, within: pooled all the same
		"stealing": reps("stealing", 1, -0.3, 0.3, -0.2, 0.2, 0),    // disturbed: not measured again
		"auto":     reps("auto", 0, 0.3, 0.25, 0.2, -0.1, 0.4),      // scattered, outside: pooled, then attempts
	}
	same := func(p string, e float64) simulate.Repetitions { return reps(p, 0, e, e, e, e, e) }
	scattered := reps("guided", 0, -0.3, 0.3, -0.2, 0.2, 0)
	again := map[string][]simulate.Repetitions{
		"dynamic": {same("dynamic", 0.05), same("dynamic", 0.05)},
		"guided":  {scattered, scattered, scattered},
		// Pooled with the first: certain and outside; then two attempts, the first pooled with
		// a second measurement, and it counts.
		"auto": {same("auto", 0.25), reps("auto", 0, 0.5, -0.1, 0.22, 0.6, -0.2), same("auto", 0.22), same("auto", 0.1)},
	}
	measured := validateAndRemeasure(t, s, c, first, again)
	if want := []string{"dynamic", "dynamic", "guided", "guided", "guided", "auto", "auto", "auto", "auto"}; !slices.Equal(measured, want) {
		t.Errorf("measured again %v; want %v", measured, want)
	}
	for _, tc := range []struct {
		p        string
		err      float64
		reps     int
		pooled   int
		attempts []float64
	}{
		{"static", 0.01, 5, 0, nil},
		{"dynamic", 0.05, 15, 3, nil},
		{"guided", 0, 20, simulate.Pooled, nil},
		{"stealing", 0, 5, 0, nil},
		{"auto", 0.22, 10, 2, []float64{0.25, 0.22, 0.1}},
	} {
		i := slices.IndexFunc(s.Checks, func(ch simulate.Check) bool { return ch.Partitioner == tc.p })
		if i < 0 {
			t.Fatalf("no check of %s", tc.p)
		}
		ch := s.Checks[i]
		if math.Abs(ch.Error-tc.err) > 1e-9 || len(ch.RepetitionErrors) != tc.reps || ch.Pooled != tc.pooled || len(ch.Attempts) != len(tc.attempts) {
			t.Errorf("%s: error %g of %d repetitions, pooled %d, attempts %v; want %g of %d, pooled %d, attempts %v",
				tc.p, ch.Error, len(ch.RepetitionErrors), ch.Pooled, ch.Attempts, tc.err, tc.reps, tc.pooled, tc.attempts)
			continue
		}
		for j, e := range tc.attempts {
			if math.Abs(ch.Attempts[j]-e) > 1e-9 {
				t.Errorf("%s: attempts %v; want %v", tc.p, ch.Attempts, tc.attempts)
			}
		}
	}
	line := s.ValidationLine()
	for _, want := range []string{
		"FAIL: 3 of 4 undisturbed",
		"measured again and pooled while the median was uncertain: uniform/dynamic w=2 (3 measurements, 15 repetitions), uniform/guided w=2 (4 measurements, 20 repetitions), uniform/auto w=2 (2 measurements, 10 repetitions);",
		"measured again after a miss, the median attempt counting: uniform/auto w=2 (+25.0% / +22.0% / +10.0%)",
		"outside: uniform/auto",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("ValidationLine() = %q; want it to contain %q", line, want)
		}
	}
}
