package plinq

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectMasks: bit j of the masks is set exactly for the elements the
// predicate keeps, for selections from none to all and lengths around the
// unrolled groups of 8 and the words of 64; the bits past the batch are
// clear, even in a buffer whose previous batch set them; the predicate is
// called once per element, in order; a nil predicate keeps every element.
func TestSelectMasks(t *testing.T) {
	type row struct {
		i    int
		keep bool
	}
	r := rand.New(rand.NewPCG(3, 4))
	var buf []uint64
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 127, 200, 255, 256, 257, 1000} {
		for _, p := range []float64{0, 0.25, 0.75, 1} {
			b := make([]row, n)
			for i := range b {
				b[i] = row{i, r.Float64() < p}
			}
			for i := range buf[:cap(buf)] { // stale bits of an earlier batch
				buf[:cap(buf)][i] = ^uint64(0)
			}
			var calls []int
			var m []uint64
			buf, m = selectMasks(buf, b, func(x row) bool { calls = append(calls, x.i); return x.keep })
			if want := (n + 63) / 64; len(m) != want {
				t.Fatalf("n=%d: %d words; want %d", n, len(m), want)
			}
			for j := range 64 * len(m) {
				got := m[j/64]>>(j%64)&1 == 1
				if want := j < n && b[j].keep; got != want {
					t.Fatalf("n=%d p=%v: bit %d = %v; want %v", n, p, j, got, want)
				}
			}
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			if !slices.Equal(calls, want) && n > 0 {
				t.Fatalf("n=%d: pred called on %v; want each element once, in order", n, calls)
			}
			_, all := selectMasks(buf, b, nil)
			for j := range 64 * len(all) {
				if got, want := all[j/64]>>(j%64)&1 == 1, j < n; got != want {
					t.Fatalf("n=%d, nil pred: bit %d = %v; want %v", n, j, got, want)
				}
			}
		}
	}
}
