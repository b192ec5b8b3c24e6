package plinq_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// TestBadInput: every documented panic on bad input happens, with a message
// naming the package, the call and the bad value.
func TestBadInput(t *testing.T) {
	q := plinq.Range(0, 10)
	empty := q.Where(func(int) bool { return false })
	tests := []struct {
		name string
		call func()
		want string
	}{
		{"Range(5, 3)", func() { plinq.Range(5, 3) }, "plinq: Range(5, 3): hi < lo"},
		{"Range overflow", func() { plinq.Range(math.MinInt, math.MaxInt) }, "more than MaxInt elements"},
		{"Repeat(-1)", func() { plinq.Repeat(1, -1) }, "plinq: Repeat(-1): negative count"},
		{"FromSeq(nil)", func() { plinq.FromSeq[int](nil) }, "plinq: FromSeq(nil)"},
		{"Where(nil)", func() { q.Where(nil) }, "plinq: Where: pred is nil"},
		{"Select(nil)", func() { plinq.Select[int, int](q, nil) }, "plinq: Select: f is nil"},
		{"SelectIndexed(nil)", func() { plinq.SelectIndexed[int, int](q, nil) }, "plinq: SelectIndexed: f is nil"},
		{"SelectMany(nil)", func() { plinq.SelectMany[int, int](q, nil) }, "plinq: SelectMany: f is nil"},
		{"Zip(nil)", func() { plinq.Zip[int, int, int](q, q, nil) }, "plinq: Zip: f is nil"},
		{"OrderBy(nil)", func() { q.OrderBy(nil) }, "plinq: OrderBy: cmp is nil"},
		{"OrderByDescending(nil)", func() { q.OrderByDescending(nil) }, "plinq: OrderByDescending: cmp is nil"},
		{"OrderByKey(nil)", func() { plinq.OrderByKey[int, int](q, nil) }, "plinq: OrderByKey: key is nil"},
		{"ThenBy unsorted", func() { q.ThenBy(func(a, b int) int { return 0 }) }, "plinq: ThenBy: the query is not sorted"},
		{"ThenByKey after Where", func() {
			plinq.ThenByKey(q.OrderBy(func(a, b int) int { return 0 }).Where(func(int) bool { return true }), func(i int) int { return i })
		}, "plinq: ThenByKey: the query is not sorted"},
		{"ThenBy(nil)", func() { q.OrderBy(func(a, b int) int { return 0 }).ThenBy(nil) }, "plinq: ThenBy: cmp is nil"},
		{"Take(-1)", func() { q.Take(-1) }, "plinq: Take(-1): negative count"},
		{"Skip(-2)", func() { q.Skip(-2) }, "plinq: Skip(-2): negative count"},
		{"TakeWhile(nil)", func() { q.TakeWhile(nil) }, "plinq: TakeWhile: pred is nil"},
		{"SkipWhile(nil)", func() { q.SkipWhile(nil) }, "plinq: SkipWhile: pred is nil"},
		{"DistinctBy(nil)", func() { plinq.DistinctBy[int, int](q, nil) }, "plinq: DistinctBy: key is nil"},
		{"GroupBy(nil)", func() { plinq.GroupBy[int, int](q, nil) }, "plinq: GroupBy: key is nil"},
		{"Join(nil)", func() { plinq.Join[int, int, int, int](q, q, nil, nil, nil) }, "plinq: Join: outerKey is nil"},
		{"CountBy(nil)", func() { plinq.CountBy[int, int](q, nil) }, "plinq: CountBy: key is nil"},
		{"ToMap(nil value)", func() { plinq.ToMap[int, int, int](q, func(i int) int { return i }, nil) }, "plinq: ToMap: value is nil"},
		{"AggregateBy(nil key)", func() { plinq.AggregateBy[int, int, int](q, nil, 0, nil, nil) }, "plinq: AggregateBy: key is nil"},
		{"AggregateBy(nil fold)", func() {
			plinq.AggregateBy(q, func(i int) int { return i }, 0, nil, func(a, b int) int { return a })
		}, "plinq: AggregateBy: fold is nil"},
		{"AggregateBy(nil combine)", func() {
			plinq.AggregateBy(q, func(i int) int { return i }, 0, func(a, i int) int { return a }, nil)
		}, "plinq: AggregateBy: combine is nil"},
		{"Aggregate(nil)", func() { plinq.Aggregate[int, int](q, 0, nil, nil) }, "plinq: Aggregate: fold is nil"},
		{"Reduce(nil)", func() { must(q.Reduce(0, nil)) }, "plinq: Reduce: op is nil"},
		{"MinBy(nil)", func() { plinq.MinBy[int, int](q, nil) }, "plinq: MinBy: key is nil"},
		{"Any(nil)", func() { must(q.Any(nil)) }, "plinq: Any: pred is nil"},
		{"Every(nil)", func() { must(q.Every(nil)) }, "plinq: Every: pred is nil"},
		{"ForAll(nil)", func() { mustDo(q.ForAll(nil)) }, "plinq: ForAll: f is nil"},
		{"ForAllErr(nil)", func() { mustDo(q.ForAllErr(nil)) }, "plinq: ForAllErr: f is nil"},
		{"SelectErr(nil)", func() { plinq.SelectErr[int, int](q, nil) }, "plinq: SelectErr: f is nil"},
		{"FindAny(nil)", func() { q.FindAny(nil) }, "plinq: FindAny: pred is nil"},
		{"Chunk(0)", func() { plinq.Chunk(q, 0) }, "plinq: Chunk(0): size must be at least 1"},
		{"Scan(nil)", func() { plinq.Scan(q, 0, nil) }, "plinq: Scan: op is nil"},
		{"ScanExclusive(nil)", func() { plinq.ScanExclusive(q, 0, nil) }, "plinq: ScanExclusive: op is nil"},
		{"Single empty", func() { must(empty.Single()) }, "plinq: Single: empty query"},
		{"Single of two", func() { must(q.Single()) }, "plinq: Single: more than one element"},
		{"WithContext(nil)", func() { q.WithContext(nil) }, "plinq: WithContext(nil)"},
		{"With(nil)", func() { q.With(nil) }, "plinq: With: opts[0] is nil"},
		{"With(opt, nil)", func() { q.With(pfor.WithWorkers(2), nil) }, "plinq: With: opts[1] is nil"},
		{"First empty", func() { must(empty.First()) }, "plinq: First: empty query"},
		{"Last empty", func() { must(empty.Last()) }, "plinq: Last: empty query"},
		{"Min empty", func() { must(plinq.Min(empty)) }, "plinq: Min: empty query"},
		{"Max empty", func() { must(plinq.Max(plinq.Empty[float64]())) }, "plinq: Max: empty query"},
		{"MinBy empty", func() { must(plinq.MinBy(empty, func(i int) int { return i })) }, "plinq: MinBy: empty query"},
		{"MaxBy empty", func() { must(plinq.MaxBy(empty, func(i int) int { return i })) }, "plinq: MaxBy: empty query"},
		{"Average empty", func() { must(plinq.Average(empty)) }, "plinq: Average: empty query"},
		{"ElementAt(-1)", func() { must(q.ElementAt(-1)) }, "plinq: ElementAt(-1): negative index"},
		{"ElementAt(10) indexed", func() { must(q.ElementAt(10)) }, "plinq: ElementAt(10): index out of range [0, 10)"},
		{"ElementAt(5) filtered", func() { must(q.Where(func(i int) bool { return i%3 == 0 }).ElementAt(5)) }, "plinq: ElementAt(5): index out of range [0, 4)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := catch(tt.call)
			if !strings.Contains(msg, tt.want) {
				t.Errorf("%s panicked with %q; want a message containing %q", tt.name, msg, tt.want)
			}
		})
	}
}

// TestNoPanicAtEdges: the edges that are not errors.
func TestNoPanicAtEdges(t *testing.T) {
	var zero plinq.Query[int]
	if got := must(zero.ToSlice()); got != nil {
		t.Errorf("zero Query.ToSlice() = %v; want nil", got)
	}
	if got := must(zero.Count()); got != 0 {
		t.Errorf("zero Query.Count() = %d; want 0", got)
	}
	if got := must(plinq.Range(3, 3).Take(0).Skip(5).ToSlice()); got != nil {
		t.Errorf("Range(3, 3).Take(0).Skip(5).ToSlice() = %v; want nil", got)
	}
	if got := must(plinq.Range(0, 5).Take(100).Count()); got != 5 {
		t.Errorf("Range(0, 5).Take(100).Count() = %d; want 5", got)
	}
	if got := must(plinq.Empty[int]().FirstOrDefault()); got != 0 {
		t.Errorf("Empty().FirstOrDefault() = %d; want 0", got)
	}
	if !must(plinq.Empty[int]().Every(func(int) bool { return false })) {
		t.Error("Empty().Every(false) = false; want true")
	}
	if must(plinq.Empty[int]().Any(func(int) bool { return true })) {
		t.Error("Empty().Any(true) = true; want false")
	}
	if got := must(plinq.Sum(plinq.Empty[float64]())); got != 0 {
		t.Errorf("Sum(Empty()) = %v; want 0", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if got, err := plinq.Range(0, 10).WithContext(ctx).Count(); got != 10 || err != nil {
		t.Errorf("Count with a live context = %d, %v; want 10, nil", got, err)
	}
}
