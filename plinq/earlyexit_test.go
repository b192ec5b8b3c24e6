package plinq_test

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// TestEarlyExit: operators whose answer is known early stop handing out
// chunks: over 16M elements with the answer near the start, they test only
// a small part of them, with every partitioner.
func TestEarlyExit(t *testing.T) {
	const n = 1 << 24
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(64), partition.Guided(1), partition.Stealing(), partition.Auto()} {
		var calls atomic.Int64
		src := plinq.Range(0, n).With(pfor.WithWorkers(2), pfor.WithPartitioner(p))
		counted := src.Where(func(int) bool { calls.Add(1); return true })
		tests := []struct {
			name string
			run  func() any
			want any
		}{
			{"Any", func() any { return must(src.Any(func(i int) bool { calls.Add(1); return i == 1000 })) }, true},
			{"Every", func() any { return must(src.Every(func(i int) bool { calls.Add(1); return i < 1000 })) }, false},
			{"Contains", func() any { return must(plinq.Contains(counted, 1000)) }, true},
			{"First", func() any { return must(counted.Where(func(i int) bool { return i >= 5000 }).First()) }, 5000},
			{"Take", func() any { return len(must(counted.Take(10_000).ToSlice())) }, 10_000},
			{"TakeWhile", func() any {
				return len(must(src.TakeWhile(func(i int) bool { calls.Add(1); return i < 10_000 }).ToSlice()))
			}, 10_000},
			{"ElementAt", func() any { return must(counted.ElementAt(7000)) }, 7000},
			{"All break", func() any {
				for v := range values(counted) {
					return v
				}
				return -1
			}, 0},
		}
		for _, tt := range tests {
			calls.Store(0)
			if got := tt.run(); got != tt.want {
				t.Errorf("%s with %s = %v; want %v", tt.name, p.Name(), got, tt.want)
			}
			// Typically a few thousand: the answer is near the start. But a
			// worker that starts far from it runs on until the answer is
			// found, and on a loaded machine the worker that finds it may
			// wait for a CPU for a while: so only require far less than all.
			if c := calls.Load(); c > n/8 {
				t.Errorf("%s with %s tested %d elements of %d; want an early exit", tt.name, p.Name(), c, n)
			}
		}
	}
}

// TestFirstIsFirstInOrder: First and Take return the first elements in
// query order even when a later chunk finds matches first: here the elements
// before 100 are slow, and every element matches.
func TestFirstIsFirstInOrder(t *testing.T) {
	slowStart := func(i int) bool {
		if i < 100 && i%10 == 0 {
			time.Sleep(200 * time.Microsecond)
		}
		return true
	}
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(1), partition.Auto()} {
		q := plinq.Range(0, 100_000).With(pfor.WithWorkers(4), pfor.WithPartitioner(p)).Where(slowStart)
		if got := must(q.First()); got != 0 {
			t.Errorf("First with %s = %d; want 0", p.Name(), got)
		}
		if got, want := must(q.Take(150).ToSlice()), slices.Collect(values(plinq.Range(0, 150))); !slices.Equal(got, want) {
			t.Errorf("Take(150) with %s = %v; want 0..149", p.Name(), got)
		}
		if got := must(q.TakeWhile(func(i int) bool { return i != 57 }).Count()); got != 57 {
			t.Errorf("TakeWhile(!= 57).Count() with %s = %d; want 57", p.Name(), got)
		}
	}
}
