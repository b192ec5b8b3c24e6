package workloads_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/internal/workload"
)

func TestAllStartsWithTheLibrarysWorkloads(t *testing.T) {
	var lib []string
	for _, w := range workload.All() {
		lib = append(lib, w.Name)
	}
	names := workloads.Names()
	if want := append(lib, "spmv", "matmul"); !slices.Equal(names, want) {
		t.Errorf("Names() = %v; want %v", names, want)
	}
	for _, name := range names {
		if w, ok := workloads.ByName(name); !ok || w.Name != name || w.N < 1 || w.Calls < 1 || w.Degree < 1 {
			t.Errorf("ByName(%q) = %+v, %v; want a complete workload", name, w, ok)
		}
	}
	if _, ok := workloads.ByName("plinq"); ok {
		t.Errorf("ByName(%q) found a workload; plinq does not exist yet", "plinq")
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
	} {
		items, calls := get(tc.name).Size(tc.scale, tc.n)
		if items != tc.items || calls != tc.calls {
			t.Errorf("%s.Size(%g, %d) = %d, %d; want %d, %d", tc.name, tc.scale, tc.n, items, calls, tc.items, tc.calls)
		}
	}
}

// TestChecksumsIndependentOfChunking runs each workload of this package sequentially, item
// by item, and in random chunks in random order: the checksums must be equal bit for bit,
// and equal for two instances built alike.
func TestChecksumsIndependentOfChunking(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{{"spmv", 3_000}, {"spmv", 1}, {"matmul", 37}, {"matmul", 1}} {
		w, _ := workloads.ByName(tc.name)
		inst := w.New(tc.n)
		inst.Chunk(0, tc.n)
		want := inst.Checksum()
		if got := w.New(tc.n); func() uint64 { got.Chunk(0, tc.n); return got.Checksum() }() != want {
			t.Errorf("%s(%d): two instances give different checksums", tc.name, tc.n)
		}
		inst.Reset()
		for i := range tc.n {
			inst.Item(i)
		}
		if got := inst.Checksum(); got != want {
			t.Errorf("%s(%d) item by item: checksum %#x; want %#x", tc.name, tc.n, got, want)
		}
		inst.Reset()
		rng := rand.New(rand.NewPCG(1, 2))
		var chunks [][2]int
		for lo := 0; lo < tc.n; {
			hi := min(tc.n, lo+1+rng.IntN(50))
			chunks = append(chunks, [2]int{lo, hi})
			lo = hi
		}
		rng.Shuffle(len(chunks), func(i, j int) { chunks[i], chunks[j] = chunks[j], chunks[i] })
		for _, c := range chunks {
			inst.Chunk(c[0], c[1])
		}
		inst.Chunk(0, 0)
		if got := inst.Checksum(); got != want {
			t.Errorf("%s(%d) in shuffled chunks: checksum %#x; want %#x", tc.name, tc.n, got, want)
		}
		for i := range tc.n {
			if c := inst.Cost(i); !(c > 0) {
				t.Fatalf("%s(%d).Cost(%d) = %g; want > 0", tc.name, tc.n, i, c)
			}
		}
	}
}

// TestSpmvRowsFollowAPowerLaw checks the shape of spmv's row lengths: at least 16 entries,
// a mean near 48, and a tail of rows far longer than the mean.
func TestSpmvRowsFollowAPowerLaw(t *testing.T) {
	const n = 50_000
	inst := workloads.NewSpmv(n)
	var sum, most float64
	least := inst.Cost(0)
	for i := range n {
		c := inst.Cost(i)
		sum += c
		most, least = max(most, c), min(least, c)
	}
	// Cost is 4 + 0.8 per entry.
	entries := func(c float64) float64 { return (c - 4) / 0.8 }
	if mean := entries(sum / n); mean < 40 || mean > 56 {
		t.Errorf("mean row length %.1f; want about 48", mean)
	}
	if l := entries(least); l < 16 {
		t.Errorf("shortest row %.0f entries; want at least 16", l)
	}
	if m := entries(most); m < 100*48 {
		t.Errorf("longest row %.0f entries; want a heavy tail (over 100 times the mean)", m)
	}
}

func TestOutOfRangePanics(t *testing.T) {
	for _, name := range []string{"spmv", "matmul"} {
		w, _ := workloads.ByName(name)
		inst := w.New(10)
		for _, f := range []func(){func() { inst.Chunk(5, 11) }, func() { inst.Chunk(-1, 2) }, func() { inst.Item(10) }, func() { inst.Cost(-1) }} {
			func() {
				defer func() {
					r := recover()
					if s, ok := r.(string); !ok || !strings.HasPrefix(s, "workloads: ") {
						t.Errorf("%s: recovered %v; want a panic starting with %q", name, r, "workloads: ")
					}
				}()
				f()
			}()
		}
	}
}
