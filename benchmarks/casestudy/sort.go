package casestudy

import (
	"math/rand/v2"
	"slices"

	"github.com/stealkit/stealkit/pfor"
)

// SortInput returns n int64s from a fixed seed, uniform over all values.
func SortInput(n int) []int64 {
	rng := rand.New(rand.NewPCG(10, 11))
	x := make([]int64, n)
	for i := range x {
		x[i] = rng.Int64()
	}
	return x
}

// Sort sorts x with the named scheme: Sequential is slices.Sort (pdqsort);
// Steal is pfor.Sort, a merge sort of slices.Sort'ed leaves on the
// work-stealing pool, with parallel merges. Sort panics on an unknown
// scheme.
func Sort(scheme string, x []int64) {
	switch scheme {
	case Sequential:
		slices.Sort(x)
	case Steal:
		pfor.Sort(x)
	default:
		panic("casestudy: Sort: unknown scheme " + scheme)
	}
}
