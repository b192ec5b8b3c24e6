package workloads_test

import (
	"slices"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/internal/workload"
)

func TestAllAreTheLibrarysWorkloads(t *testing.T) {
	var lib []string
	for _, w := range append(workload.All(), workload.More()...) {
		lib = append(lib, w.Name)
	}
	names := workloads.Names()
	if want := lib; !slices.Equal(names, want) {
		t.Errorf("Names() = %v; want %v", names, want)
	}
	for _, name := range names {
		if w, ok := workloads.ByName(name); !ok || w.Name != name || w.N < 1 || w.Calls < 1 || w.Degree < 1 {
			t.Errorf("ByName(%q) = %+v, %v; want a complete workload", name, w, ok)
		}
	}
	if _, ok := workloads.ByName("nope"); ok {
		t.Errorf("ByName(%q) found a workload", "nope")
	}
}

func TestSize(t *testing.T) {
	get := func(name string) workloads.Workload { w, _ := workloads.ByName(name); return w }
	for _, tc := range []struct {
		name         string
		scale        float64
		n            int
		items, calls int
	}{
		{"tailheavy", 1, 0, 100_000, 1},
		{"tailheavy", 0.25, 0, 25_000, 1},
		{"mandelbrot", 0.25, 0, 1_000, 1}, // n rows of n pixels: n scales by the square root
		{"matmul", 0.125, 0, 256, 1},      // n^3 multiply-adds: n scales by the cube root
		{"tiny", 0.25, 0, 1_000, 500},     // the calls scale, not the size of one call
		{"tiny", 1e-9, 0, 1_000, 1},
		{"saxpy", 1e-12, 0, 1, 1},
		{"saxpy", 0.25, 777, 777, 1}, // n wins over scale
		{"tiny", 0.25, 50, 50, 2_000},
		{"query", 0.25, 0, 1_024, 1},
		{"spmv", 0.25, 0, 50_000, 1},
	} {
		items, calls := get(tc.name).Size(tc.scale, tc.n)
		if items != tc.items || calls != tc.calls {
			t.Errorf("%s.Size(%g, %d) = %d, %d; want %d, %d", tc.name, tc.scale, tc.n, items, calls, tc.items, tc.calls)
		}
	}
}
