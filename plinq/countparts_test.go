package plinq_test

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// countInputs are inputs for CountBy's partitioned counts: wide integer
// keys (which no dense window holds) nearly all distinct, each repeated
// within a few positions, a few repeated far apart (so that two workers
// count them), many repeated across workers, and keys that start dense and
// go wide.
func countInputs() map[string][]int64 {
	const n = 3000
	in := map[string][]int64{}
	wide := func(i int) int64 { return int64(i) * 1_000_003 }
	add := func(name string, f func(i int) int64) {
		s := make([]int64, n)
		for i := range s {
			s[i] = f(i)
		}
		in[name] = s
	}
	add("distinct", wide)
	add("near-pairs", func(i int) int64 { return wide(i / 2) })
	add("far-repeats", func(i int) int64 { return wide(i % (n - 100)) })
	add("few-keys", func(i int) int64 { return wide(i*7919%n) % 37 * 1_000_003 })
	add("dense-then-wide", func(i int) int64 {
		if i < n/2 {
			return int64(i % 10)
		}
		return wide(i)
	})
	return in
}

// TestCountByPartitioned: CountBy matches the sequential map loop when its
// workers partition their counts after a few keys or none, with buffers of
// one key or a few, into partitions that grow or do not, for integer keys and for strings, over a slice, a Where
// over it and a Select (which count batches).
func TestCountByPartitioned(t *testing.T) {
	keep := func(x int64) bool { return x%5 != 1 }
	str := func(x int64) string { return strconv.FormatInt(x, 36) }
	for _, c := range []struct{ after, parts, buf int }{{0, 256, 1}, {0, 8, 3}, {5, 16, 1}, {40, 256, 7}, {100, 8, 200}} {
		for name, vals := range countInputs() {
			for _, opts := range groupingConfigs() {
				func() {
					defer plinq.SetCounting(c.after, c.parts, c.buf)()
					run := func(what string, got, want any, equal bool) {
						t.Helper()
						if !equal {
							t.Fatalf("CountBy of %s over %s, partitioning after %d keys into %d, buffers of %d, %d options: mismatch (-want +got):\n%s",
								name, what, c.after, c.parts, c.buf, len(opts), gocmp.Diff(want, got))
						}
					}
					q := plinq.From(vals).With(opts...)
					id := func(x int64) int64 { return x }
					got, want := must(plinq.CountBy(q, id)), refCountBy(vals, id)
					run("slice", got, want, maps.Equal(got, want))
					got, want = must(plinq.CountBy(q.Where(keep), id)), refCountBy(refWhere(vals, keep), id)
					run("slice-where", got, want, maps.Equal(got, want))
					got, want = must(plinq.CountBy(plinq.Select(q, id), id)), refCountBy(vals, id)
					run("select", got, want, maps.Equal(got, want))
					sgot, swant := must(plinq.CountBy(q, str)), refCountBy(vals, str)
					run("slice, string keys", sgot, swant, maps.Equal(sgot, swant))
				}()
			}
		}
	}
}

// TestCountByPartitionedNaN: partitioned, every NaN key is counted apart,
// as in a map loop, and the other keys are counted together.
func TestCountByPartitionedNaN(t *testing.T) {
	defer plinq.SetCounting(0, 8, 2)()
	vals := make([]float64, 2000)
	for i := range vals {
		if i%3 == 0 {
			vals[i] = math.NaN()
		} else {
			vals[i] = float64(i % 50)
		}
	}
	for _, opts := range groupingConfigs() {
		got := must(plinq.CountBy(plinq.From(vals).With(opts...), func(x float64) float64 { return x }))
		nans, others := 0, map[float64]int{}
		for k, c := range got {
			if k != k {
				if c != 1 {
					t.Fatalf("CountBy with %d options: a NaN counted %d times; want 1", len(opts), c)
				}
				nans++
			} else {
				others[k] = c
			}
		}
		want := refCountBy(refWhere(vals, func(x float64) bool { return x == x }), func(x float64) float64 { return x })
		if nans != 667 || !maps.Equal(others, want) {
			t.Fatalf("CountBy with %d options: %d NaN keys, others %v; want 667 and %v", len(opts), nans, others, want)
		}
	}
}

// TestCountByPartitionedPanics: a panic in key after the workers have
// partitioned their counts reaches the caller as a *pfor.PanicError.
func TestCountByPartitionedPanics(t *testing.T) {
	defer plinq.SetCounting(0, 256, 4)()
	for w := 1; w <= 3; w++ {
		t.Run(fmt.Sprintf("workers=%d", w), func(t *testing.T) {
			defer func() {
				pe, ok := recover().(*pfor.PanicError)
				if !ok || !errors.Is(pe, errBoom) {
					t.Fatalf("recovered %v; want a *pfor.PanicError of errBoom", pe)
				}
			}()
			plinq.CountBy(plinq.Range(0, 5000).With(pfor.WithWorkers(w)), func(i int) int { boomAt(i); return i * 1_000_003 })
			t.Fatal("CountBy returned; want a panic")
		})
	}
}
