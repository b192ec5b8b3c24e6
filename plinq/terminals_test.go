package plinq_test

import (
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/stealkit/stealkit/plinq"
)

// A terminal runs a query to a comparable result; ref returns the
// reference result, or ok == false when plinq must panic (an empty First).
type terminal struct {
	name string
	run  func(q plinq.Query[int]) any
	ref  func(s []int) (want any, ok bool)
	perm bool // the result is a sequence that Unordered may permute
}

// try runs the terminal, returning its error instead of panicking on one.
func (tm terminal) try(q plinq.Query[int]) (got any, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(failed); ok {
				got, err = nil, e.err
				return
			}
			panic(r)
		}
	}()
	return tm.run(q), nil
}

var terminals = []terminal{
	{"ToSlice", func(q plinq.Query[int]) any { return must(q.ToSlice()) }, func(s []int) (any, bool) { return s, true }, true},
	{"All", func(q plinq.Query[int]) any { return slices.Collect(values(q)) }, func(s []int) (any, bool) { return s, true }, true},
	{"Enumerate", func(q plinq.Query[int]) any {
		var got []int
		for i, v := range all(q) {
			if i != len(got) {
				return fmt.Sprintf("position %d at %d", i, len(got))
			}
			got = append(got, v)
		}
		return got
	}, func(s []int) (any, bool) { return s, true }, true},
	{"ForAll", func(q plinq.Query[int]) any {
		var n, sum atomic.Int64
		mustDo(q.ForAll(func(x int) { n.Add(1); sum.Add(int64(x)) }))
		return [2]int64{n.Load(), sum.Load()}
	}, func(s []int) (any, bool) {
		var sum int64
		for _, v := range s {
			sum += int64(v)
		}
		return [2]int64{int64(len(s)), sum}, true
	}, false},
	{"Count", func(q plinq.Query[int]) any { return must(q.Count()) }, func(s []int) (any, bool) { return len(s), true }, false},
	{"Sum", func(q plinq.Query[int]) any { return must(plinq.Sum(q)) }, func(s []int) (any, bool) { return refAggregate(s, 0, func(a, x int) int { return a + x }), true }, false},
	{"Min", func(q plinq.Query[int]) any { return must(plinq.Min(q)) }, func(s []int) (any, bool) {
		if len(s) == 0 {
			return nil, false
		}
		return slices.Min(s), true
	}, false},
	{"Max", func(q plinq.Query[int]) any { return must(plinq.Max(q)) }, func(s []int) (any, bool) {
		if len(s) == 0 {
			return nil, false
		}
		return slices.Max(s), true
	}, false},
	{"Average", func(q plinq.Query[int]) any { // of small values, whose float sums are exact in any order
		return must(plinq.Average(plinq.Select(q, func(x int) int { return mod(x, 1000) })))
	}, func(s []int) (any, bool) {
		if len(s) == 0 {
			return nil, false
		}
		return float64(refAggregate(s, 0, func(a, x int) int { return a + mod(x, 1000) })) / float64(len(s)), true
	}, false},
	{"MinBy", func(q plinq.Query[int]) any { return must(plinq.MinBy(q, func(x int) int { return mod(x, 10) })) }, func(s []int) (any, bool) {
		return refMinBy(s, func(x int) int { return mod(x, 10) }, -1)
	}, false},
	{"MaxBy", func(q plinq.Query[int]) any { return must(plinq.MaxBy(q, func(x int) int { return mod(x, 10) })) }, func(s []int) (any, bool) {
		return refMinBy(s, func(x int) int { return mod(x, 10) }, +1)
	}, false},
	{"Aggregate", func(q plinq.Query[int]) any { // concatenation: associative, not commutative, so order shows
		return must(plinq.Aggregate(q, "", func(a string, x int) string { return a + strconv.Itoa(x) + "," }, func(a, b string) string { return a + b }))
	}, func(s []int) (any, bool) {
		return refAggregate(s, "", func(a string, x int) string { return a + strconv.Itoa(x) + "," }), true
	}, false},
	{"AggregateBy", func(q plinq.Query[int]) any { // concatenation per key: the blocks' order shows
		return must(plinq.AggregateBy(q, func(x int) int { return mod(x, 3) }, "", func(a string, x int) string { return a + strconv.Itoa(x) + "," }, func(a, b string) string { return a + b }).ToSlice())
	}, func(s []int) (any, bool) {
		return refAggregateBy(s, func(x int) int { return mod(x, 3) }, "", func(a string, x int) string { return a + strconv.Itoa(x) + "," }), true
	}, false},
	{"Reduce", func(q plinq.Query[int]) any { return must(q.Reduce(0, func(a, b int) int { return a ^ b })) }, func(s []int) (any, bool) {
		return refAggregate(s, 0, func(a, x int) int { return a ^ x }), true
	}, false},
	{"First", func(q plinq.Query[int]) any { return must(q.First()) }, func(s []int) (any, bool) {
		if len(s) == 0 {
			return nil, false
		}
		return s[0], true
	}, false},
	{"FirstOrDefault", func(q plinq.Query[int]) any { return must(q.FirstOrDefault()) }, func(s []int) (any, bool) {
		if len(s) == 0 {
			return 0, true
		}
		return s[0], true
	}, false},
	{"Last", func(q plinq.Query[int]) any { return must(q.Last()) }, func(s []int) (any, bool) {
		if len(s) == 0 {
			return nil, false
		}
		return s[len(s)-1], true
	}, false},
	{"LastOrDefault", func(q plinq.Query[int]) any { return must(q.LastOrDefault()) }, func(s []int) (any, bool) {
		if len(s) == 0 {
			return 0, true
		}
		return s[len(s)-1], true
	}, false},
	{"Single", func(q plinq.Query[int]) any { return must(q.Single()) }, func(s []int) (any, bool) {
		if len(s) != 1 {
			return nil, false
		}
		return s[0], true
	}, false},
	{"Single(x%7==2)", func(q plinq.Query[int]) any {
		return must(q.Where(func(x int) bool { return mod(x, 7) == 2 }).Single())
	}, func(s []int) (any, bool) {
		m := refWhere(s, func(x int) bool { return mod(x, 7) == 2 })
		if len(m) != 1 {
			return nil, false
		}
		return m[0], true
	}, false},
	{"FindAny(x>25)", func(q plinq.Query[int]) any { // any match will do: the result is whether one was found, if it is one
		v, ok, err := q.FindAny(func(x int) bool { return x > 25 })
		mustDo(err)
		if ok && v <= 25 {
			return fmt.Sprintf("FindAny returned %d, which does not match", v)
		}
		return ok
	}, func(s []int) (any, bool) {
		return slices.ContainsFunc(s, func(x int) bool { return x > 25 }), true
	}, false},
	{"ElementAt(7)", func(q plinq.Query[int]) any { return must(q.ElementAt(7)) }, func(s []int) (any, bool) {
		if len(s) <= 7 {
			return nil, false
		}
		return s[7], true
	}, false},
	{"Any(x>25)", func(q plinq.Query[int]) any { return must(q.Any(func(x int) bool { return x > 25 })) }, func(s []int) (any, bool) {
		return slices.ContainsFunc(s, func(x int) bool { return x > 25 }), true
	}, false},
	{"Every(x>-28)", func(q plinq.Query[int]) any { return must(q.Every(func(x int) bool { return x > -28 })) }, func(s []int) (any, bool) {
		return !slices.ContainsFunc(s, func(x int) bool { return x <= -28 }), true
	}, false},
	{"Contains(13)", func(q plinq.Query[int]) any { return must(plinq.Contains(q, 13)) }, func(s []int) (any, bool) { return slices.Contains(s, 13), true }, false},
	{"CountBy", func(q plinq.Query[int]) any {
		return must(plinq.CountBy(q, func(x int) int { return mod(x, 5) }).ToSlice())
	}, func(s []int) (any, bool) {
		return refCountBy(s, func(x int) int { return mod(x, 5) }), true
	}, false},
	{"ToMap", func(q plinq.Query[int]) any { // later elements overwrite: checks "last wins"
		return must(plinq.ToMap(q, func(x int) int { return mod(x, 7) }, func(x int) int { return x }))
	}, func(s []int) (any, bool) {
		return refToMap(s, func(x int) int { return mod(x, 7) }, func(x int) int { return x }), true
	}, false},
}
