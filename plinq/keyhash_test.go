package plinq_test

import (
	"testing"

	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// TestUnhashableKeysPanic: a key of an interface type holding a value that
// cannot be hashed (a slice) panics, as in a map, and the panic reaches the
// caller as a *pfor.PanicError wherever the grouping first hashes it: in a
// worker, or on the caller's goroutine when it merges the workers' keys.
func TestUnhashableKeysPanic(t *testing.T) {
	count := func(a, _ int) int { return a + 1 }
	add := func(a, b int) int { return a + b }
	cases := map[string]func() error{
		"CountBy, every key a slice": func() error {
			_, err := plinq.CountBy(plinq.Range(0, 1000), func(i int) any { return []int{i} }).ToSlice()
			return err
		},
		"AggregateBy, every key a slice": func() error {
			_, err := plinq.AggregateBy(plinq.Range(0, 1000), func(i int) any { return []int{i} }, 0, count, add).ToSlice()
			return err
		},
		"AggregateBy, one key a slice": func() error { // no worker compares it with another key
			_, err := plinq.AggregateBy(plinq.Range(0, 1000), func(i int) any {
				if i == 500 {
					return []int{i}
				}
				return i % 3
			}, 0, count, add).ToSlice()
			return err
		},
		"AggregateBy, two keys, slices of two types": func() error {
			_, err := plinq.AggregateBy(plinq.Range(0, 2).With(pfor.WithWorkers(1)), func(i int) any {
				if i == 0 {
					return []int{i}
				}
				return []string{"x"}
			}, 0, count, add).ToSlice()
			return err
		},
	}
	for name, run := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil {
					t.Error("no panic; want a *pfor.PanicError")
				} else if _, ok := r.(*pfor.PanicError); !ok {
					t.Errorf("panic %T %v; want a *pfor.PanicError", r, r)
				}
			}()
			run()
		})
	}
}
