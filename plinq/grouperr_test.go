package plinq_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stealkit/stealkit/plinq"
)

// TestGroupingFirstErrorInOrder: the grouping operators run their input as
// they group it, block by block; when a function fails on several
// elements, the error is the first failing element's in query order, as
// with every terminal (see SelectErr), whatever the workers, the
// partitioner and which block fails first in time. The input is indexed
// (a SelectErr over a slice) and unindexed (a Where after it).
func TestGroupingFirstErrorInOrder(t *testing.T) {
	for _, shrunk := range []bool{false, true} {
		t.Run(fmt.Sprintf("shrunk=%v", shrunk), func(t *testing.T) {
			if shrunk {
				defer plinq.ShrinkSizes()()
			}
			r := rand.New(rand.NewPCG(11, 3))
			for range 6 {
				n := 1 + r.IntN(5000)
				fails := map[int]bool{}
				first := n
				for range 1 + r.IntN(4) {
					i := r.IntN(n)
					fails[i] = true
					first = min(first, i)
				}
				s := make([]int, n)
				for i := range s {
					s[i] = i
				}
				f := func(i int) (int, error) {
					if i%16 == 0 {
						runtime.Gosched() // injected preemption: other blocks fail meanwhile
					}
					if fails[i] {
						return 0, elemErr{"f", i}
					}
					return i, nil
				}
				want := elemErr{"f", first}
				key := func(v int) int { return v % 7 }
				for _, opts := range configs() {
					in := plinq.SelectErr(plinq.From(s).With(opts...), f)
					for _, q := range map[string]plinq.Query[int]{"indexed": in, "after Where": in.Where(func(v int) bool { return v%3 != 1 })} {
						for name, run := range map[string]func() error{
							"GroupBy": func() error { _, err := plinq.GroupBy(q, key).ToSlice(); return err },
							"CountBy": func() error { _, err := plinq.CountBy(q, key).ToSlice(); return err },
							"AggregateBy": func() error {
								_, err := plinq.AggregateBy(q, key, 0, func(a, v int) int { return a + v }, func(a, b int) int { return a + b }).ToSlice()
								return err
							},
							"Distinct": func() error { _, err := plinq.Distinct(q).ToSlice(); return err },
						} {
							if err := run(); err != want {
								t.Fatalf("%d elements failing at %v, %s with %d options: error %v; want %v", n, fails, name, len(opts), err, want)
							}
						}
					}
				}
			}
		})
	}
}
