package plinq

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectOffsets: the offsets of the elements a predicate keeps, in
// order, for selections from none to all, in a buffer reused from batch to
// batch and grown when a batch is longer; and elemAt reads the element at
// each offset.
func TestSelectOffsets(t *testing.T) {
	type row struct {
		v    int64
		keep bool
	}
	r := rand.New(rand.NewPCG(1, 2))
	var buf []int32
	for _, n := range []int{0, 1, 2, 7, 255, 256, 257, 1000} {
		for _, p := range []float64{0, 0.25, 0.75, 1} {
			b := make([]row, n)
			var want []int32
			for i := range b {
				b[i] = row{r.Int64(), r.Float64() < p}
				if b[i].keep {
					want = append(want, int32(i))
				}
			}
			var sel []int32
			buf, sel = selectOffsets(buf, b, func(x row) bool { return x.keep })
			if !slices.Equal(sel, want) && len(sel)+len(want) > 0 {
				t.Fatalf("n=%d p=%v: offsets %v, want %v", n, p, sel, want)
			}
			for _, i := range sel {
				if got := *elemAt(b, i); got != b[i] {
					t.Fatalf("n=%d: elemAt(b, %d) = %v, want %v", n, i, got, b[i])
				}
			}
			_, all := selectOffsets(buf, b, nil)
			if len(all) != n || n > 0 && all[n-1] != int32(n-1) {
				t.Fatalf("n=%d: nil predicate kept %d offsets, want all", n, len(all))
			}
		}
	}
}
