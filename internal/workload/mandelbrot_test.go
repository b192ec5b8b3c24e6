package workload_test

import (
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
)

func TestMandelbrotPixelEscapeConvention(t *testing.T) {
	for _, tc := range []struct {
		cr, ci float64
		want   int
	}{
		{0, 0, 500},    // z stays 0
		{-2, 0, 500},   // 0, -2, 2, 2, ...: |z|^2 = 4 is not an escape
		{-1, 0, 500},   // 0, -1, 0, -1, ...
		{0, 1, 500},    // 0, i, -1+i, -i, -1+i, ...
		{0.25, 0, 500}, // converges to 1/2
		{1, 0, 3},      // 0, 1, 2 pass the test; 5 does not
		{0.5, 0, 5},    // 0, .5, .75, 1.0625, 1.6289... pass; 3.153... does not
		{2, 2, 1},      // z = c after one step, and |c|^2 > 4
		{-2, -1.25, 1}, // the window's first pixel
		{-2, 1.75, 1},  // the first pixel of the (excluded) row r = n
	} {
		if got := workload.MandelbrotPixel(tc.cr, tc.ci); got != tc.want {
			t.Errorf("MandelbrotPixel(%v, %v) = %d; want %d", tc.cr, tc.ci, got, tc.want)
		}
	}
}

func TestMandelbrotCostIsRowIterations(t *testing.T) {
	w, _ := workload.ByName("mandelbrot")
	const n = 60
	inst := w.New(n)
	for r := range n {
		want := float64(refMandelbrotRow(r, n)) * workload.MandelbrotIterCost
		if got := inst.Cost(r); got != want {
			t.Errorf("mandelbrot New(%d).Cost(%d) = %v; want %v", n, r, got, want)
		}
	}
}

// TestMandelbrotStaticSplit checks that the window is off-centre as benchmarks/WORKLOADS.md
// says: the first half of the rows carries about 74% of the iterations. The share grows slowly with n
// (73.4% at n = 120, 74.2% at n = 2000).
func TestMandelbrotStaticSplit(t *testing.T) {
	w, _ := workload.ByName("mandelbrot")
	type size struct {
		n      int     // rows; 0 means the default
		lo, hi float64 // bounds on the first half's share
	}
	sizes := []size{{120, 0.70, 0.78}}
	if !testing.Short() {
		sizes = append(sizes, size{0, 0.735, 0.745}) // the default n = 2000: about a second
	}
	for _, s := range sizes {
		inst := w.New(s.n)
		var first, total float64
		for r := range inst.Len() {
			c := inst.Cost(r)
			total += c
			if r < inst.Len()/2 {
				first += c
			}
		}
		share := first / total
		t.Logf("mandelbrot n = %d: first half of the rows has %.2f%% of the iterations", inst.Len(), 100*share)
		if share < s.lo || share > s.hi {
			t.Errorf("mandelbrot n = %d: first half of the rows has %.1f%% of the iterations; want %.1f%% to %.1f%%",
				inst.Len(), 100*share, 100*s.lo, 100*s.hi)
		}
	}
}
