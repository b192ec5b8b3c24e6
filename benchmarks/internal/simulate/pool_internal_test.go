package simulate

import (
	"math"
	"reflect"
	"testing"
)

// TestMedianStdErr: 1.2533 × 1.4826 × the median absolute deviation over √n; one repetition
// far off barely moves it; fewer than three values say nothing of the spread.
func TestMedianStdErr(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{-0.3, 0.2, -0.1, 0.3, -0.25}, 1.2533 * 1.4826 * 0.2 / math.Sqrt(5)},
		{[]float64{0.1, 0.1, 0.1, 0.1}, 0},
		{[]float64{0, 0.01, -0.01, 0.02, 5}, 1.2533 * 1.4826 * 0.01 / math.Sqrt(5)},
		{[]float64{-1, 1}, 0},
		{nil, 0},
	} {
		if got := medianStdErr(tc.xs); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("medianStdErr(%v) = %g; want %g", tc.xs, got, tc.want)
		}
	}
}

// TestJoin: the repetitions of two measurements of a cell follow each other; what only one
// has is left out, so that each repetition keeps what bracketed it; the load of others is the
// mean weighted by repetitions, or the one that is known.
func TestJoin(t *testing.T) {
	a := Repetitions{TimesNs: []float64{1, 2}, UnitNs: [][]float64{{1}, {2}}, AfterUnitNs: [][]float64{{3}, {4}},
		CallNsBefore: []float64{5, 6}, CallNsAfter: []float64{7, 8}, TransferNsBefore: []float64{9, 10}, TransferNsAfter: []float64{11, 12}, OtherLoad: 0.75}
	b := Repetitions{TimesNs: []float64{13}, UnitNs: [][]float64{{14}}, AfterUnitNs: [][]float64{{15}},
		CallNsBefore: []float64{16}, CallNsAfter: []float64{17}, OtherLoad: 0}
	want := Repetitions{TimesNs: []float64{1, 2, 13}, UnitNs: [][]float64{{1}, {2}, {14}}, AfterUnitNs: [][]float64{{3}, {4}, {15}},
		CallNsBefore: []float64{5, 6, 16}, CallNsAfter: []float64{7, 8, 17}, OtherLoad: 0.5}
	got := a.join(b)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("join = %+v\nwant %+v", got, want)
	}
	if !got.valid(1) {
		t.Errorf("joined repetitions are not valid for a check: %+v", got)
	}
	b.OtherLoad = -1
	if got := a.join(b).OtherLoad; got != 0.75 {
		t.Errorf("join with an unknown load: %g; want the known 0.75", got)
	}
	a.OtherLoad = -1
	if got := a.join(b).OtherLoad; got != -1 {
		t.Errorf("join of two unknown loads: %g; want -1", got)
	}
	if a.TimesNs[len(a.TimesNs)-1] != 2 || len(a.TimesNs) != 2 {
		t.Errorf("join changed its receiver: %v", a.TimesNs)
	}
}
