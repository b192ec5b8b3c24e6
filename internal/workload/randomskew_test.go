package workload_test

import (
	"math"
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
)

func TestSplitMix64KnownValues(t *testing.T) {
	// Outputs of Vigna's reference splitmix64.c, and the first output for seed 42.
	for _, tc := range []struct {
		seed uint64
		want []uint64
	}{
		{0, []uint64{0xe220a8397b1dcdaf}},
		{1234567, []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423}},
		{42, []uint64{0xbdd732262feb6e95}},
	} {
		state := tc.seed
		for k, want := range tc.want {
			var z uint64
			state, z = workload.SplitMix64(state)
			if z != want {
				t.Errorf("splitmix64 seeded %d: output %d = %#x; want %#x", tc.seed, k, z, want)
			}
		}
	}
}

func TestRandomskewCosts(t *testing.T) {
	w, _ := workload.ByName("randomskew")
	inst := w.New(1_000)
	// The first costs, computed from the formula with an independent implementation
	// (Python's floats) when the workload was written.
	for i, want := range []float64{212, 672, 443, 378, 1974} {
		if got := inst.Cost(i); got != want {
			t.Errorf("randomskew Cost(%d) = %v; want %v", i, got, want)
		}
	}
	ref := refRandomskewIters(inst.Len())
	for i, want := range ref {
		if got := inst.Cost(i); got != float64(want) {
			t.Fatalf("randomskew Cost(%d) = %v; want %d from the formula", i, got, want)
		}
	}
	small := w.New(10)
	for i := range small.Len() {
		if got, want := small.Cost(i), inst.Cost(i); got != want {
			t.Errorf("randomskew New(10).Cost(%d) = %v; want %v as for New(1000): a prefix", i, got, want)
		}
	}
}

func TestRandomskewDefaultCosts(t *testing.T) {
	w, _ := workload.ByName("randomskew")
	inst := w.New(0)
	lo, hi, sum := math.Inf(1), 0.0, 0.0
	for i := range inst.Len() {
		c := inst.Cost(i)
		lo, hi, sum = min(lo, c), max(hi, c), sum+c
	}
	if lo < 170 || hi != 1_155_815 {
		t.Errorf("randomskew costs for n = %d span [%v, %v]; want at least 170 and a maximum of 1155815 as documented", inst.Len(), lo, hi)
	}
	if mean := sum / float64(inst.Len()); mean < 600 || mean > 700 {
		t.Errorf("randomskew mean cost for n = %d is %.1f; want about 680 (Pareto alpha 4/3, scale 170)", inst.Len(), mean)
	}
}

func TestParetoItersSaturates(t *testing.T) {
	// z>>11 = 0 gives u = 2^-53 and a quotient of about 1.6e14: saturated. The threshold is
	// (z>>11)+1 <= 3,061,600, i.e. a quotient of at least 2^31.
	for _, tc := range []struct {
		z    uint64
		want int32
	}{
		{0, math.MaxInt32},
		{3_061_599 << 11, math.MaxInt32},
		{math.MaxUint64, 170}, // u = 1
	} {
		if got := workload.ParetoIters(tc.z); got != tc.want {
			t.Errorf("ParetoIters(%#x) = %d; want %d", tc.z, got, tc.want)
		}
	}
	got := workload.ParetoIters(3_061_700 << 11)
	if got == math.MaxInt32 || got < 2_000_000_000 {
		t.Errorf("ParetoIters just above the threshold = %d; want just below 2^31 - 1", got)
	}
}
