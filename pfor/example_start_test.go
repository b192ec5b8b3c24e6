package pfor_test

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/stealkit/stealkit/pfor"
)

// A loop, a map and a reduction over a slice: the first three calls most
// programs need.
func Example() {
	in := []float64{1, 4, 9, 16, 25}

	roots := make([]float64, len(in))
	pfor.Range(0, len(in), func(i int) { roots[i] = math.Sqrt(in[i]) }) // each i exactly once

	doubled := pfor.Map(in, func(x float64) float64 { return 2 * x }) // in input order

	sum := pfor.Reduce(in, 0.0,
		func(acc, x float64) float64 { return acc + x }, // folds a block, in order
		func(a, b float64) float64 { return a + b })     // combines blocks, in index order

	fmt.Println(roots)
	fmt.Println(doubled)
	fmt.Println(sum)
	// Output:
	// [1 2 3 4 5]
	// [2 8 18 32 50]
	// 55
}

// A word count: each block counts into a map of its own, and combine merges
// them on the caller's goroutine, so no lock is needed. The identity is nil:
// a map given as identity would be shared by every block.
func ExampleReduce_wordCount() {
	words := strings.Fields(strings.Repeat("to be or not to be ", 10_000))
	counts := pfor.Reduce(words, map[string]int(nil),
		func(m map[string]int, w string) map[string]int {
			if m == nil {
				m = make(map[string]int)
			}
			m[w]++
			return m
		},
		func(a, b map[string]int) map[string]int {
			for w, n := range b {
				a[w] += n
			}
			return a
		})
	for _, w := range slices.Sorted(maps.Keys(counts)) {
		fmt.Println(w, counts[w])
	}
	// Output:
	// be 20000
	// not 10000
	// or 10000
	// to 20000
}
