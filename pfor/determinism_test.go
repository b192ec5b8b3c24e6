package pfor_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

// assocSensitive returns floats whose sum depends on the association: their
// magnitudes span twelve decades, so every grouping rounds differently.
func assocSensitive(n int) []float64 {
	rng := rand.New(rand.NewPCG(3, 5))
	in := make([]float64, n)
	for i := range in {
		in[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)))
	}
	return in
}

func fadd(a, b float64) float64 { return a + b }

// TestReduceSameBitsAnyWorkersAndPartitioner: the first condition of
// Reduce's determinism. For one input and one grain, Reduce and ReduceRange
// return the same bits at every GOMAXPROCS, worker count and partitioner.
func TestReduceSameBitsAnyWorkersAndPartitioner(t *testing.T) {
	in := assocSensitive(200_003)
	for _, grain := range []int{0, 999} {
		var opts []pfor.Option
		if grain > 0 {
			opts = append(opts, pfor.WithGrain(grain))
		}
		want := pfor.Reduce(in, 0.0, fadd, fadd, append(opts, pfor.WithWorkers(1))...)
		for _, procs := range []int{1, 2, 5} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				for _, p := range partitioners {
					for _, w := range []int{1, 2, 3, 8} {
						o := append(opts[:len(opts):len(opts)], pfor.WithPartitioner(p), pfor.WithWorkers(w))
						got := pfor.Reduce(in, 0.0, fadd, fadd, o...)
						gotR := pfor.ReduceRange(0, len(in), 0.0, func(a float64, i int) float64 { return a + in[i] }, fadd, o...)
						if math.Float64bits(got) != math.Float64bits(want) || math.Float64bits(gotR) != math.Float64bits(want) {
							t.Fatalf("grain %d, GOMAXPROCS %d, %s, %d workers: Reduce = %v, ReduceRange = %v; want bitwise %v (Reduce on one worker)",
								grain, procs, p.Name(), w, got, gotR, want)
						}
					}
				}
			}()
		}
	}
}

// TestReduceOtherGrainOtherBits: the second condition. A different grain
// cuts other blocks, so a sum whose rounding depends on the association may
// give other bits. This is what makes the test above meaningful: its input
// does depend on the association.
func TestReduceOtherGrainOtherBits(t *testing.T) {
	in := assocSensitive(200_003)
	seen := map[uint64][]int{}
	for _, grain := range []int{500, 999, 4096, 20000} {
		s := pfor.Reduce(in, 0.0, fadd, fadd, pfor.WithGrain(grain), pfor.WithWorkers(2))
		seen[math.Float64bits(s)] = append(seen[math.Float64bits(s)], grain)
	}
	if len(seen) < 2 {
		t.Fatalf("Reduce gave the same bits for grains 500, 999, 4096 and 20000 (%v): the input does not test the association", seen)
	}
}

// TestReduceRangeBlocksStartAtLo: ReduceRange's blocks are counted from lo,
// so a range not starting at 0 reduces as Reduce does the slice of its
// values, bit for bit; and each block is folded in index order and the
// blocks combined in index order.
func TestReduceRangeBlocksStartAtLo(t *testing.T) {
	in := assocSensitive(50_001)
	for _, lo := range []int{0, -7, math.MaxInt - 60_000} {
		for _, grain := range []int{0, 333} {
			var opts []pfor.Option
			block := max(1024, len(in)/4096)
			if grain > 0 {
				opts, block = append(opts, pfor.WithGrain(grain)), grain
			}
			// The documented order, sequentially.
			var want float64
			for b := 0; b < len(in); b += block {
				part := 0.0
				for _, x := range in[b:min(b+block, len(in))] {
					part += x
				}
				if b == 0 {
					want = part
				} else {
					want += part
				}
			}
			got := pfor.ReduceRange(lo, lo+len(in), 0.0, func(a float64, i int) float64 { return a + in[i-lo] }, fadd, opts...)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("ReduceRange(%d, %d), grain %d = %v; want bitwise %v", lo, lo+len(in), grain, got, want)
			}
		}
	}
}

// TestReduceRangeModel: ReduceRange against a sequential model with a
// non-commutative combine (concatenation keeps index order), over empty,
// one-block and many-block ranges, negative ones included.
func TestReduceRangeModel(t *testing.T) {
	for _, tc := range []struct{ lo, hi, grain int }{
		{0, 0, 0}, {5, 5, 3}, {-3, 4, 0}, {-3, 4, 2}, {0, 10_000, 0}, {-5000, 5000, 7}, {1, 4097, 1},
	} {
		want := ""
		for i := tc.lo; i < tc.hi; i++ {
			want += fmt.Sprint((i%10 + 10) % 10)
		}
		opts := []pfor.Option{pfor.WithWorkers(4)}
		if tc.grain > 0 {
			opts = append(opts, pfor.WithGrain(tc.grain))
		}
		got := pfor.ReduceRange(tc.lo, tc.hi, "", func(a string, i int) string { return a + fmt.Sprint((i%10+10)%10) },
			func(a, b string) string { return a + b }, opts...)
		if got != want {
			t.Errorf("ReduceRange(%d, %d), grain %d: got %d bytes not in index order; want %d", tc.lo, tc.hi, tc.grain, len(got), len(want))
		}
	}
}
