package plinq_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// Benchmark inputs, built once, on first use.
var (
	ints16M = sync.OnceValue(func() []int64 { return randInts(16<<20, 1000, 1) })
	ints10M = sync.OnceValue(func() []int64 { return randInts(10_000_000, 0, 2) })
)

// randInts returns n random int64s in [0, bound), or over all of int64 if
// bound is 0.
func randInts(n int, bound int64, seed uint64) []int64 {
	r := rand.New(rand.NewPCG(seed, seed))
	s := make([]int64, n)
	for i := range s {
		if bound == 0 {
			s[i] = int64(r.Uint64())
		} else {
			s[i] = r.Int64N(bound)
		}
	}
	return s
}

// The user functions of the pipeline benchmarks, in variables so that the
// hand-written loops call them as plinq does, through a func value.
var (
	keep   = func(x int64) bool { return x%3 != 0 }
	double = func(x int64) int64 { return 2 * x }
	sink   atomic.Int64
)

// BenchmarkWhereSelectSum: Sum(Select(Where(16M int64))). Baselines: a
// sequential loop and a hand-written pfor.Chunks loop, both calling the same
// function values; and both again with the functions' bodies written inline.
func BenchmarkWhereSelectSum(b *testing.B) {
	in := ints16M()
	p, f := keep, double
	impls := []impl{
		{"sequential", func() int64 {
			var s int64
			for _, x := range in {
				if p(x) {
					s += f(x)
				}
			}
			return s
		}},
		{"sequential-inlined", func() int64 {
			var s int64
			for _, x := range in {
				if x%3 != 0 {
					s += 2 * x
				}
			}
			return s
		}},
		{"pfor-chunks", func() int64 { return chunksSum(in, p, f) }},
		{"pfor-chunks-inlined", func() int64 {
			var total atomic.Int64
			pfor.Chunks(0, len(in), func(lo, hi int) {
				var s int64
				for _, x := range in[lo:hi] {
					if x%3 != 0 {
						s += 2 * x
					}
				}
				total.Add(s)
			})
			return total.Load()
		}},
		{"plinq", func() int64 { return must(plinq.Sum(plinq.Select(plinq.From(in).Where(p), f))) }},
	}
	runImpls(b, impls)
}

// BenchmarkToSlice: Where (keeping two thirds) then ToSlice over 16M int64,
// in query order and Unordered; and the fused Where+Select+ToSlice, whose
// allocations are its output plus O(chunks).
func BenchmarkToSlice(b *testing.B) {
	in := ints16M()
	q := plinq.From(in).Where(keep)
	cases := []struct {
		name string
		q    plinq.Query[int64]
	}{
		{"order=ordered", q},
		{"order=unordered", q.Unordered()},
		{"order=ordered/select", plinq.Select(q, double)},
	}
	for _, c := range cases { // untimed, as in runImpls
		sink.Store(int64(len(must(c.q.ToSlice()))))
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink.Store(int64(len(must(c.q.ToSlice()))))
			}
		})
	}
}

// BenchmarkOrderBy sorts 10M random int64: slices.Sort (pdqsort, not
// stable, comparisons inlined) on a copy, against plinq's stable sorts by
// key (radix) and by compare function (merge).
func BenchmarkOrderBy(b *testing.B) {
	in := ints10M()
	buf := make([]int64, len(in))
	runImpls(b, []impl{
		{"slices.Sort", func() int64 { copy(buf, in); slices.Sort(buf); return buf[0] }},
		{"plinq-key", func() int64 {
			return must(plinq.OrderByKey(plinq.From(in), func(x int64) int64 { return x }).ToSlice())[0]
		}},
		{"plinq-cmp", func() int64 { return must(plinq.From(in).OrderBy(compare).ToSlice())[0] }},
	})
}

// BenchmarkOrderByFunc: the stable sorts by compare function, sequential
// (slices.SortStableFunc on a copy) and plinq's, on the same 10M int64.
func BenchmarkOrderByFunc(b *testing.B) {
	in := ints10M()
	buf := make([]int64, len(in))
	runImpls(b, []impl{
		{"slices.SortStableFunc", func() int64 { copy(buf, in); slices.SortStableFunc(buf, compare); return buf[0] }},
		{"plinq-cmp", func() int64 { return must(plinq.From(in).OrderBy(compare).ToSlice())[0] }},
	})
}

// compare is an int64 compare function as users write it (cmp.Compare[int64]
// as a func value would call through a dictionary wrapper).
func compare(a, b int64) int { return cmp.Compare(a, b) }

// BenchmarkGroupBy groups 10M int64 into 1,000 keys (x % 1000), and counts
// them by key (CountBy, and AggregateBy folding a count), against the
// sequential map loops.
func BenchmarkGroupBy(b *testing.B) {
	in := ints10M()
	key := func(x int64) int64 { return x % 1000 }
	impls := []impl{
		{"sequential-groupby", func() int64 {
			m := map[int64][]int64{}
			for _, x := range in {
				k := key(x)
				m[k] = append(m[k], x)
			}
			return int64(len(m))
		}},
		{"plinq-groupby", func() int64 { return int64(must(plinq.GroupBy(plinq.From(in), key).Count())) }},
		{"sequential-countby", func() int64 {
			m := map[int64]int{}
			for _, x := range in {
				m[key(x)]++
			}
			return int64(len(m))
		}},
		{"plinq-countby", func() int64 { return int64(len(must(plinq.CountBy(plinq.From(in), key).ToSlice()))) }},
		{"plinq-aggregateby", func() int64 {
			return int64(len(must(plinq.AggregateBy(plinq.From(in), key, 0, func(c int, _ int64) int { return c + 1 }, func(a, b int) int { return a + b }).ToSlice())))
		}},
	}
	runImpls(b, impls)
}

// BenchmarkOverhead: the fixed cost of running a small query (1,000
// elements, Where then Sum), against the same loop with pfor.Chunks and
// sequentially.
func BenchmarkOverhead(b *testing.B) {
	in := randInts(1000, 1000, 3)
	p, f := keep, double
	impls := []impl{
		{"sequential", func() int64 {
			var s int64
			for _, x := range in {
				if p(x) {
					s += f(x)
				}
			}
			return s
		}},
		{"pfor-chunks", func() int64 { return chunksSum(in, p, f) }},
		{"plinq", func() int64 { return must(plinq.Sum(plinq.Select(plinq.From(in).Where(p), f))) }},
	}
	runImpls(b, impls)
}

// An impl is one implementation in a benchmark family.
type impl struct {
	name string
	run  func() int64
}

// runImpls runs each implementation as the sub-benchmark impl=name. Every
// implementation first runs once untimed, all of them before the first is
// timed: otherwise the first to allocate pays for page-faulting fresh heap
// that the later ones reuse, which slows the first case markedly.
// chunksSum is the loop a pfor user writes for Where, Select and Sum:
// pfor.Chunks with a partial sum per chunk, added atomically.
func chunksSum(in []int64, p func(int64) bool, f func(int64) int64) int64 {
	var total atomic.Int64
	pfor.Chunks(0, len(in), func(lo, hi int) {
		var s int64
		for _, x := range in[lo:hi] {
			if p(x) {
				s += f(x)
			}
		}
		total.Add(s)
	})
	return total.Load()
}

func runImpls(b *testing.B, impls []impl) {
	for _, im := range impls {
		sink.Store(im.run())
	}
	for _, im := range impls {
		b.Run("impl="+im.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink.Store(im.run())
			}
		})
	}
}
