package plinq_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/stealkit/stealkit/plinq"
)

// operators are the random pipeline steps: each applies one operator (or
// two, for ThenBy) with random parameters to a pipeline and its reference.
var operators = []func(r *rand.Rand, p pipeline) pipeline{
	func(r *rand.Rand, p pipeline) pipeline {
		m := 2 + r.IntN(4)
		k := r.IntN(m)
		pred := func(x int) bool { return mod(x, m) == k }
		return p.then(fmt.Sprintf("Where(x%%%d==%d)", m, k), p.q.Where(pred), refWhere(p.ref, pred))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		a, b := 1+r.IntN(3), r.IntN(10)-5
		f := func(x int) int { return a*x + b }
		return p.then(fmt.Sprintf("Select(%dx%+d)", a, b), plinq.Select(p.q, f), refSelect(p.ref, f))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		f := func(i, x int) int { return x + 3*i }
		return p.then("SelectIndexed", plinq.SelectIndexed(p.q, f), refSelectIndexed(p.ref, f))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		f := func(x int) []int { return []int{x, x + 100, x + 200}[:mod(x, 4)] }
		return p.then("SelectMany", plinq.SelectMany(p.q, f), refSelectMany(p.ref, f))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		other := randSlice(r)
		f := func(a, b int) int { return a*7 + b }
		return p.then(fmt.Sprintf("Zip(From(%d))", len(other)), plinq.Zip(p.q, plinq.From(other), f), refZip(p.ref, other, f))
	},
	func(r *rand.Rand, p pipeline) pipeline { // a branch of the query zipped with another
		f := func(a, b int) int { return a - 2*b }
		return p.then("Zip(self.Skip(1))", plinq.Zip(p.q, p.q.Skip(1), f), refZip(p.ref, refSkip(p.ref, 1), f))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		m := 2 + r.IntN(6)
		c := func(a, b int) int { return mod(a, m) - mod(b, m) }
		if r.IntN(2) == 0 {
			return p.then(fmt.Sprintf("OrderByDescending(x%%%d)", m), p.q.OrderByDescending(c), refSort(p.ref, func(a, b int) int { return c(b, a) }))
		}
		c2 := func(a, b int) int { return cmp.Compare(mod(a, 3), mod(b, 3)) }
		return p.then(fmt.Sprintf("OrderBy(x%%%d).ThenBy(x%%3)", m), p.q.OrderBy(c).ThenBy(c2), refSort(p.ref, func(a, b int) int { return cmp.Or(c(a, b), c2(a, b)) }))
	},
	func(r *rand.Rand, p pipeline) pipeline { // radix: integer keys, signed
		m := 2 + r.IntN(9)
		k1 := func(x int) int8 { return int8(mod(x, m) - m/2) }
		k2 := func(x int) uint16 { return uint16(mod(x, 3)) }
		switch r.IntN(3) {
		case 0:
			return p.then(fmt.Sprintf("OrderByKey(int8 x%%%d)", m), plinq.OrderByKey(p.q, k1), refSort(p.ref, refKeyCmp(k1, false)))
		case 1:
			return p.then(fmt.Sprintf("OrderByKeyDescending(x%%%d).ThenByKey(x%%3)", m),
				plinq.ThenByKey(plinq.OrderByKeyDescending(p.q, k1), k2),
				refSort(p.ref, func(a, b int) int { return cmp.Or(refKeyCmp(k1, true)(a, b), refKeyCmp(k2, false)(a, b)) }))
		}
		return p.then("OrderByKey(int x)", plinq.OrderByKey(p.q, func(x int) int { return x }), refSort(p.ref, cmp.Compare[int]))
	},
	func(r *rand.Rand, p pipeline) pipeline { // radix on floats: NaN first, -0 == +0, stable
		k := func(x int) float64 {
			switch mod(x, 5) {
			case 0:
				return math.NaN()
			case 1:
				return math.Copysign(0, -1)
			case 2:
				return 0
			}
			return float64(x) / 4
		}
		if r.IntN(2) == 0 {
			return p.then("OrderByKeyDescending(float)", plinq.OrderByKeyDescending(p.q, k), refSort(p.ref, refKeyCmp(k, true)))
		}
		return p.then("OrderByKey(float)", plinq.OrderByKey(p.q, k), refSort(p.ref, refKeyCmp(k, false)))
	},
	func(r *rand.Rand, p pipeline) pipeline { // string keys: merge sort, mixed with a radix key
		k := func(x int) string { return strconv.Itoa(mod(x, 11)) }
		k2 := func(x int) int { return mod(x, 2) }
		return p.then("OrderByKey(string).ThenByKeyDescending(x%2)", plinq.ThenByKeyDescending(plinq.OrderByKey(p.q, k), k2),
			refSort(p.ref, func(a, b int) int { return cmp.Or(refKeyCmp(k, false)(a, b), refKeyCmp(k2, true)(a, b)) }))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		return p.then("Reverse", p.q.Reverse(), refReverse(p.ref))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		n := r.IntN(40)
		if r.IntN(4) == 0 {
			n = r.IntN(3000)
		}
		return p.then(fmt.Sprintf("Take(%d)", n), p.q.Take(n), refTake(p.ref, n))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		n := r.IntN(40)
		return p.then(fmt.Sprintf("Skip(%d)", n), p.q.Skip(n), refSkip(p.ref, n))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		m := 5 + r.IntN(100)
		pred := func(x int) bool { return mod(x*7+3, m) != 0 }
		return p.then(fmt.Sprintf("TakeWhile(%d)", m), p.q.TakeWhile(pred), refTakeWhile(p.ref, pred))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		m := 2 + r.IntN(60)
		pred := func(x int) bool { return mod(x*5+1, m) != 0 }
		return p.then(fmt.Sprintf("SkipWhile(%d)", m), p.q.SkipWhile(pred), refSkipWhile(p.ref, pred))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		if r.IntN(2) == 0 {
			return p.then("Distinct", plinq.Distinct(p.q), refDistinctBy(p.ref, func(x int) int { return x }))
		}
		m := 1 + r.IntN(8)
		key := func(x int) int { return mod(x, m) }
		return p.then(fmt.Sprintf("DistinctBy(x%%%d)", m), plinq.DistinctBy(p.q, key), refDistinctBy(p.ref, key))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		other := randSlice(r)
		o := plinq.From(other)
		switch r.IntN(4) {
		case 0:
			return p.then("Union", plinq.Union(p.q, o), refUnion(p.ref, other))
		case 1:
			return p.then("Intersect", plinq.Intersect(p.q, o), refMembers(p.ref, other, true))
		case 2:
			return p.then("Except", plinq.Except(p.q, o), refMembers(p.ref, other, false))
		}
		pred := func(x int) bool { return x%3 == 0 }
		return p.then("Except(self.Where)", plinq.Except(p.q, p.q.Where(pred)), refMembers(p.ref, refWhere(p.ref, pred), false))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		m := 1 + r.IntN(12)
		key := func(x int) int { return mod(x, m) }
		summary := func(k int, items []int) int { return k*1_000_003 + hashInts(items) }
		got := plinq.Select(plinq.GroupBy(p.q, key), func(g plinq.Group[int, int]) int { return summary(g.Key, g.Items) })
		want := refSelect(refGroupBy(p.ref, key), func(g refGroup[int, int]) int { return summary(g.Key, g.Items) })
		return p.then(fmt.Sprintf("GroupBy(x%%%d)", m), got, want)
	},
	func(r *rand.Rand, p pipeline) pipeline {
		other := randSlice(r)
		other = other[:min(len(other), 60)]
		ok, ik := func(x int) int { return mod(x, 4) }, func(x int) int { return mod(x, 5) }
		f := func(o, i int) int { return o*1000 + i }
		return p.then(fmt.Sprintf("Join(%d)", len(other)), plinq.Join(p.q, plinq.From(other), ok, ik, f), refJoin(p.ref, other, ok, ik, f))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		if r.IntN(2) == 0 { // a branch of the query after itself
			pred := func(x int) bool { return x%2 != 0 }
			return p.then("Concat(self.Where)", plinq.Concat(p.q, p.q.Where(pred)), append(slices.Clone(p.ref), refWhere(p.ref, pred)...))
		}
		other := randSlice(r)
		if r.IntN(2) == 0 {
			return p.then(fmt.Sprintf("Concat(From(%d), self)", len(other)), plinq.Concat(plinq.From(other), p.q), append(slices.Clone(other), p.ref...))
		}
		return p.then(fmt.Sprintf("Concat(From(%d))", len(other)), plinq.Concat(p.q, plinq.From(other)), append(slices.Clone(p.ref), other...))
	},
	func(r *rand.Rand, p pipeline) pipeline { // each batch summarized: its length and its elements in order
		n := 1 + r.IntN(50)
		summary := func(b []int) int { return len(b)*1_000_003 + hashInts(b) }
		return p.then(fmt.Sprintf("Chunk(%d)", n), plinq.Select(plinq.Chunk(p.q, n), summary), refSelect(refChunk(p.ref, n), summary))
	},
	func(r *rand.Rand, p pipeline) pipeline { // int sums wrap alike; op(a, b) = a+b+a*b is associative, 0 its identity
		op := func(a, b int) int { return a + b + a*b }
		if r.IntN(2) == 0 {
			return p.then("Scan", plinq.Scan(p.q, 0, op), refScan(p.ref, 0, op, true))
		}
		return p.then("ScanExclusive", plinq.ScanExclusive(p.q, 0, op), refScan(p.ref, 0, op, false))
	},
	func(r *rand.Rand, p pipeline) pipeline {
		p = p.then("Unordered", p.q.Unordered(), p.ref)
		p.unordered = true
		return p
	},
}
