package plinq_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// TestDenseIndexWindow: a denseIndex takes every key of any window of span
// keys, in any order and wherever the window lies (across zero, across
// the wrap-around of uint64), and numbers each as it was set; the first key
// outside a window of span turns it off for good.
func TestDenseIndexWindow(t *testing.T) {
	for _, span := range []int{1, 2, 8, 16, 17, 100, 1 << 16} {
		for _, base := range []uint64{0, 5, math.MaxUint64 - 3, 1 << 63, math.MaxUint64 - uint64(span) + 1, uint64(math.MaxInt64) - 2} {
			t.Run(fmt.Sprintf("span=%d/base=%#x", span, base), func(t *testing.T) {
				defer plinq.SetGrouping(span, 1<<16)()
				r := rand.New(rand.NewPCG(uint64(span), base))
				order := r.Perm(span)
				d := plinq.NewDense()
				for i, o := range order {
					if !d.Set(base+uint64(o), int32(i)) {
						t.Fatalf("Set(base+%d) as key %d of a window of %d = false; want true", o, i, span)
					}
					if d.Slots() > span {
						t.Fatalf("after %d keys: %d slots; want at most %d", i+1, d.Slots(), span)
					}
				}
				for i, o := range order {
					if got := d.Find(base + uint64(o)); got != int32(i) {
						t.Fatalf("Find(base+%d) = %d; want %d", o, got, i)
					}
				}
				if got := d.Find(base + uint64(span)); got != -1 {
					t.Fatalf("Find(base+span) = %d; want -1", got)
				}
				outside := []uint64{base + uint64(span), base - 1}
				if d.Set(outside[r.IntN(2)], int32(span)) || d.On() {
					t.Fatalf("Set of a key outside the window of %d: true or still on; want false and off", span)
				}
				if got := d.Find(base); got != -1 {
					t.Fatalf("Find(base) after turning off = %d; want -1", got)
				}
			})
		}
	}
}

// A named integer type, as users group by (a region, a status).
type region int16

// keyShapes returns key sequences of n values that exercise the dense
// numbering and its end: a small range across zero (dense throughout),
// exactly span values (dense at its limit), span+1 values (the last one
// ends it), small then wide from the middle on (dense, then a map
// mid-query), the type's extremes, and values drawn from the whole type
// (nearly all distinct: the parallel merge), and keys equal in their low 32
// bits.
func keyShapes(r *rand.Rand, n, span int) map[string][]int64 {
	out := map[string][]int64{}
	small, exact, over, mixed16, mixed17, extremes, wide := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for i := range n {
		small[i] = int64(r.IntN(7)) - 3
		exact[i] = -2 + int64(r.IntN(span))
		over[i] = -2 + int64(r.IntN(span))
		mixed16[i], mixed17[i] = int64(i%16), int64(i%17) // as many keys as a keyTable scans, and one more
		if i >= n/2 {
			mixed16[i], mixed17[i] = int64(r.Uint64()), int64(r.Uint64())
		}
		extremes[i] = []int64{math.MinInt64, math.MaxInt64, -1, 0, 1}[r.IntN(5)]
		wide[i] = int64(r.Uint64())
	}
	if n > 0 {
		exact[r.IntN(n)], exact[r.IntN(n)] = -2, -2+int64(span)-1 // both ends of the window
		over[n/2+r.IntN(n-n/2)] = -2 + int64(span)                // one past it, late
	}
	out["small"], out["exact"], out["over"], out["extremes"], out["wide"] = small, exact, over, extremes, wide
	out["mixed16"], out["mixed17"] = mixed16, mixed17
	high := make([]int64, n) // equal in their low 32 bits: keys must be told apart by all their bits
	for i := range high {
		high[i] = int64(r.IntN(4))<<32 | int64(r.IntN(3))
	}
	out["high"] = high
	return out
}

// checkIntKeys runs the grouping operators over vals, keyed by themselves
// (as I) and by their index modulo 3 paired with them, under every config,
// and compares with the sequential reference.
func checkIntKeys[I comparable](t *testing.T, name string, vals []I) {
	t.Helper()
	other := vals[len(vals)/3:]
	if len(other) > 50 {
		other = other[:50]
	}
	id := func(v I) I { return v }
	count := func(c int, _ I) int { return c + 1 }
	for _, opts := range groupingConfigs() {
		q := plinq.From(vals).With(opts...)
		// go-cmp only to show a mismatch: comparing with it took most of
		// the test's time.
		check := func(op string, equal bool, got, want any) {
			t.Helper()
			if !equal {
				t.Fatalf("%s: %s with %d options: mismatch (-want +got):\n%s", name, op, len(opts), gocmp.Diff(want, got, cmpopts.EquateEmpty()))
			}
		}
		groups, wantGroups := must(plinq.GroupBy(q, id).ToSlice()), refGroupBy(vals, id)
		check("GroupBy", slices.EqualFunc(groups, wantGroups, func(g plinq.Group[I, I], w refGroup[I, I]) bool {
			return g.Key == w.Key && slices.Equal(g.Items, w.Items)
		}), groups, wantGroups)
		checkGroupFlows(t, name, vals, opts)
		seq := func(op string, got, want []I) { t.Helper(); check(op, slices.Equal(got, want), got, want) }
		seq("Distinct", must(plinq.Distinct(q).ToSlice()), refDistinctBy(vals, id))
		seq("Union", must(plinq.Union(plinq.From(vals), plinq.From(other)).With(opts...).ToSlice()), refUnion(vals, other))
		seq("Intersect", must(plinq.Intersect(plinq.From(other), plinq.From(vals)).With(opts...).ToSlice()), refMembers(other, vals, true))
		seq("Except", must(plinq.Except(plinq.From(vals), plinq.From(other)).With(opts...).ToSlice()), refMembers(vals, other, false))
		counts, wantCounts := must(plinq.CountBy(q, id).ToSlice()), refCountBy(vals, id)
		check("CountBy", slices.Equal(counts, wantCounts), counts, wantCounts)
		aggs, wantAggs := must(plinq.AggregateBy(q, id, 0, count, func(a, b int) int { return a + b }).ToSlice()), refAggregateBy(vals, id, 0, count)
		check("AggregateBy", slices.Equal(aggs, wantAggs), aggs, wantAggs)
		checkAggregateBy(t, name, vals, opts)
		pair := func(a, b I) [2]I { return [2]I{a, b} }
		joined, wantJoined := must(plinq.Join(plinq.From(other), plinq.From(vals), id, id, pair).With(opts...).ToSlice()), refJoin(other, vals, id, id, pair)
		check("Join", slices.Equal(joined, wantJoined), joined, wantJoined)
	}
}

// A placed is an element and its position in the input, which shows
// whether a group's elements came in input order.
type placed[I any] struct {
	At int
	V  I
}

// checkGroupFlows: GroupBy over a Where over a slice and over a Select,
// which group the elements as the query yields them, match the reference,
// each group's elements in input order, each group capped.
func checkGroupFlows[I comparable](t *testing.T, name string, vals []I, opts []pfor.Option) {
	t.Helper()
	in := make([]placed[I], len(vals))
	for i, v := range vals {
		in[i] = placed[I]{i, v}
	}
	keyOf := func(p placed[I]) I { return p.V }
	sel := func(p placed[I]) bool { return p.At%5 != 2 }
	same := func(op string, got []plinq.Group[I, placed[I]], want []refGroup[I, placed[I]]) {
		t.Helper()
		if !slices.EqualFunc(got, want, func(g plinq.Group[I, placed[I]], w refGroup[I, placed[I]]) bool {
			return g.Key == w.Key && slices.Equal(g.Items, w.Items)
		}) {
			t.Fatalf("%s: %s with %d options: mismatch (-want +got):\n%s", name, op, len(opts), gocmp.Diff(want, got, cmpopts.EquateEmpty()))
		}
		for _, g := range got {
			if cap(g.Items) != len(g.Items) {
				t.Fatalf("%s: %s with %d options: group %v has cap %d, len %d; want them equal, so that appending copies", name, op, len(opts), g.Key, cap(g.Items), len(g.Items))
			}
		}
	}
	same("GroupBy over Where", must(plinq.GroupBy(plinq.From(in).With(opts...).Where(sel), keyOf).ToSlice()), refGroupBy(refWhere(in, sel), keyOf))
	self := func(p placed[I]) placed[I] { return p }
	same("GroupBy over Select", must(plinq.GroupBy(plinq.Select(plinq.From(in).With(opts...), self), keyOf).ToSlice()), refGroupBy(in, keyOf))
}

// A span is the positions of the elements a part of AggregateBy folded:
// the first, the last and how many, which shows whether the parts were
// folded and combined in order.
type span struct{ first, last, n int }

func foldSpan(a span, i int) span {
	if a.n == 0 {
		a.first = i
	}
	a.last, a.n = i, a.n+1
	return a
}

func combineSpans(a, b span) span {
	switch {
	case a.n == 0:
		return b
	case b.n == 0:
		return a
	}
	return span{a.first, b.last, a.n + b.n}
}

// checkAggregateBy runs AggregateBy over the positions of vals keyed by
// vals, folding their spans, and CountBy over them, over a slice and a
// Where over it (which fold and count fused) and over a Select and a Where
// after it (which fold and count batches), and compares with the
// sequential reference.
func checkAggregateBy[I comparable](t *testing.T, name string, vals []I, opts []pfor.Option) {
	t.Helper()
	pos := make([]int, len(vals))
	for i := range pos {
		pos[i] = i
	}
	key := func(i int) I { return vals[i] }
	keep := func(i int) bool { return i%4 != 1 }
	id := func(i int) int { return i }
	queries := map[string]struct {
		q    plinq.Query[int]
		want []int
	}{
		"slice":        {plinq.From(pos), pos},
		"slice-where":  {plinq.From(pos).Where(keep), refWhere(pos, keep)},
		"select":       {plinq.Select(plinq.From(pos), id), pos},
		"select-where": {plinq.Select(plinq.From(pos), id).Where(keep), refWhere(pos, keep)},
	}
	for qn, c := range queries {
		got, want := must(plinq.AggregateBy(c.q.With(opts...), key, span{}, foldSpan, combineSpans).ToSlice()), refAggregateBy(c.want, key, span{}, foldSpan)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: AggregateBy over %s with %d options: mismatch (-want +got):\n%s", name, qn, len(opts), gocmp.Diff(want, got, gocmp.AllowUnexported(span{})))
		}
		if got, want := must(plinq.CountBy(c.q.With(opts...), key).ToSlice()), refCountBy(c.want, key); !slices.Equal(got, want) {
			t.Fatalf("%s: CountBy over %s with %d options: mismatch (-want +got):\n%s", name, qn, len(opts), gocmp.Diff(want, got))
		}
	}
}

// groupingConfigs are a few of configs: each worker count, and each kind
// of partitioner.
func groupingConfigs() [][]pfor.Option {
	return [][]pfor.Option{
		{pfor.WithWorkers(1), pfor.WithPartitioner(partition.Static())},
		{pfor.WithWorkers(2), pfor.WithPartitioner(partition.Stealing())},
		{pfor.WithWorkers(3), pfor.WithPartitioner(partition.Dynamic(1))},
		{pfor.WithWorkers(2), pfor.WithPartitioner(partition.Guided(1))},
		{pfor.WithWorkers(4), pfor.WithGrain(5)},
	}
}

func convert[I any](s []int64, f func(int64) I) []I {
	out := make([]I, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// TestGroupingIntegerKeys: the grouping operators over keys of every integer
// kind (and a named one) match the sequential reference whether the keys
// stay dense, reach the dense limit exactly, pass it, go wide mid-query or
// are nearly all distinct; with the real sizes and with every block, the
// dense limit and the parallel merge's threshold shrunk.
func TestGroupingIntegerKeys(t *testing.T) {
	for _, shrunk := range []bool{false, true} {
		t.Run(fmt.Sprintf("shrunk=%v", shrunk), func(t *testing.T) {
			span, n := 1<<16, 3000
			if shrunk {
				defer plinq.ShrinkSizes()()
				span, n = 8, 400
			}
			if testing.Short() || raceEnabled {
				n /= 3
			}
			r := rand.New(rand.NewPCG(7, uint64(n)))
			shapes := keyShapes(r, n, min(span, 3*n))
			for _, shape := range slices.Sorted(func(yield func(string) bool) {
				for k := range shapes {
					if !yield(k) {
						return
					}
				}
			}) {
				s := shapes[shape]
				checkIntKeys(t, "int/"+shape, convert(s, func(v int64) int { return int(v) }))
				checkIntKeys(t, "int8/"+shape, convert(s, func(v int64) int8 { return int8(v) }))
				checkIntKeys(t, "int16/"+shape, convert(s, func(v int64) int16 { return int16(v) }))
				checkIntKeys(t, "int32/"+shape, convert(s, func(v int64) int32 { return int32(v) }))
				checkIntKeys(t, "int64/"+shape, s)
				checkIntKeys(t, "uint/"+shape, convert(s, func(v int64) uint { return uint(v) }))
				checkIntKeys(t, "uint8/"+shape, convert(s, func(v int64) uint8 { return uint8(v) }))
				checkIntKeys(t, "uint16/"+shape, convert(s, func(v int64) uint16 { return uint16(v) }))
				checkIntKeys(t, "uint32/"+shape, convert(s, func(v int64) uint32 { return uint32(v) }))
				checkIntKeys(t, "uint64/"+shape, convert(s, func(v int64) uint64 { return uint64(v) }))
				checkIntKeys(t, "uintptr/"+shape, convert(s, func(v int64) uintptr { return uintptr(v) }))
				checkIntKeys(t, "region/"+shape, convert(s, func(v int64) region { return region(v) }))
			}
		})
	}
}

// TestParallelMerge: with many distinct keys (strings, and ints past the
// dense limit) the key index merges in parallel at the real sizes too, and
// GroupBy, Distinct and the set operators still match the reference.
func TestParallelMerge(t *testing.T) {
	n := 70_000
	if testing.Short() || raceEnabled {
		n = 20_000
		defer plinq.SetGrouping(1<<16, 1000)()
	}
	r := rand.New(rand.NewPCG(3, 3))
	ints := make([]int64, n)
	for i := range ints {
		ints[i] = int64(r.Uint64() >> 20) // some repeat
		if i%7 == 0 {
			ints[i] = ints[r.IntN(i+1)]
		}
	}
	strs := convert(ints, func(v int64) string { return fmt.Sprint(v % 50_000) })
	checkIntKeys(t, "int64", ints)
	checkIntKeys(t, "string", strs)
}

// TestGroupByFlowBlocks: GroupBy over a Where and a Select, over many
// blocks, with keys first met block after block (negative ones first) and
// a range that grows past the dense window midway, matches the reference
// whether the blocks' keys merge on the caller or in parallel.
func TestGroupByFlowBlocks(t *testing.T) {
	defer plinq.ShrinkSizes()()
	for _, merge := range []int{1 << 20, 0} {
		restore := plinq.SetGrouping(8, merge)
		r := rand.New(rand.NewPCG(9, uint64(merge)))
		vals := make([]int64, 500)
		for i := range vals {
			vals[i] = int64(i/40)*3 - 20 + int64(r.IntN(3))
		}
		for _, opts := range groupingConfigs() {
			checkGroupFlows(t, fmt.Sprintf("merge past %d", merge), vals, opts)
		}
		restore()
	}
}

// TestCountByNaN: CountBy and AggregateBy give a NaN key, unequal to
// itself, a pair per element, in its place in order of first appearance,
// as the sequential map loop does, whatever the workers.
func TestCountByNaN(t *testing.T) {
	vals := make([]float64, 2000)
	for i := range vals {
		vals[i] = float64(i % 5)
		if i%97 == 3 {
			vals[i] = math.NaN()
		}
	}
	id := func(f float64) float64 { return f }
	sum := func(a, f float64) float64 { return a + f }
	same := func(a, b float64) bool { return a == b || a != a && b != b }
	for _, opts := range groupingConfigs() {
		q := plinq.From(vals).With(opts...)
		counts, want := must(plinq.CountBy(q, id).ToSlice()), refCountBy(vals, id)
		if !slices.EqualFunc(counts, want, func(a, b plinq.KeyValue[float64, int]) bool { return same(a.Key, b.Key) && a.Value == b.Value }) {
			t.Fatalf("CountBy with %d options = %v; want %v", len(opts), counts, want)
		}
		sums, wantSums := must(plinq.AggregateBy(q, id, 0, sum, func(a, b float64) float64 { return a + b }).ToSlice()), refAggregateBy(vals, id, 0, sum)
		if !slices.EqualFunc(sums, wantSums, func(a, b plinq.KeyValue[float64, float64]) bool { return same(a.Key, b.Key) && same(a.Value, b.Value) }) {
			t.Fatalf("AggregateBy with %d options = %v; want %v", len(opts), sums, wantSums)
		}
	}
}

// TestCountByManyPerIndex: CountBy over a SelectMany, whose blocks yield
// more distinct keys than a block has indices (so that a block's keys are
// counted in several parts), some repeating across blocks, matches the
// reference: with every size shrunk, merged on the caller and in parallel,
// and at the real sizes, where a block's 131,072 distinct keys would
// overflow the merge's 16-bit local numbers if counted in one part.
func TestCountByManyPerIndex(t *testing.T) {
	expand := func(i int) []int64 { return []int64{int64(i), int64(-i), int64(i % 7), int64(i) << 40} }
	check := func(name string, n int) {
		t.Helper()
		var flat []int64
		for i := range n {
			flat = append(flat, expand(i)...)
		}
		id := func(v int64) int64 { return v }
		want := refCountBy(flat, id)
		for _, opts := range groupingConfigs() {
			q := plinq.SelectMany(plinq.Range(0, n).With(opts...), expand)
			if got := must(plinq.CountBy(q, id).ToSlice()); !slices.Equal(got, want) {
				t.Fatalf("%s, %d options: CountBy over SelectMany mismatch (-want +got):\n%s", name, len(opts), gocmp.Diff(want, got))
			}
		}
	}
	check("real sizes", 1<<16+100)
	defer plinq.ShrinkSizes()()
	for _, merge := range []int{1 << 20, 0} {
		restore := plinq.SetGrouping(8, merge)
		check(fmt.Sprintf("shrunk, merge past %d", merge), 400)
		restore()
	}
}

// TestCountByDenseBlocks: CountBy over integer keys of small range, counted
// in each worker's dense array, matches the reference over several blocks
// whose keys appear in an order unlike their values', new keys first met
// in later blocks, a range that moves from block to block and, in the last
// block, a key far off that turns the array off midway; over a slice, a
// Where over it and a Select (fused and batched counting), at the real
// sizes and with every size shrunk, merged on the caller and in parallel;
// and over a SelectMany whose blocks yield more keys than indices.
func TestCountByDenseBlocks(t *testing.T) {
	check := func(name string, n int) {
		t.Helper()
		bl := n / 3
		vals := make([]int32, n)
		for i := range vals {
			vals[i] = int32(i*31%12+4*(i/bl)) - 6
		}
		vals[n-bl/2] = 1 << 20
		id := func(v int32) int32 { return v }
		keep := func(v int32) bool { return v%5 != 2 }
		queries := map[string]struct {
			q    plinq.Query[int32]
			want []int32
		}{
			"slice":  {plinq.From(vals), vals},
			"where":  {plinq.From(vals).Where(keep), refWhere(vals, keep)},
			"select": {plinq.Select(plinq.From(vals), id), vals},
		}
		for _, opts := range groupingConfigs() {
			for qn, c := range queries {
				want := refCountBy(c.want, id)
				if got := must(plinq.CountBy(c.q.With(opts...), id).ToSlice()); !slices.Equal(got, want) {
					t.Fatalf("%s: CountBy over %s with %d options: mismatch (-want +got):\n%s", name, qn, len(opts), gocmp.Diff(want, got))
				}
			}
		}
	}
	check("real sizes", 3*(1<<16)+30)
	defer plinq.ShrinkSizes()()
	expand := func(i int) []int16 {
		out := make([]int16, 8)
		for j := range out {
			out[j] = int16((i*8+j)*13%50 - i/40)
		}
		return out
	}
	var flat []int16
	for i := range 200 {
		flat = append(flat, expand(i)...)
	}
	for _, merge := range []int{1 << 20, 0} {
		restore := plinq.SetGrouping(8, merge)
		check(fmt.Sprintf("shrunk, merge past %d", merge), 150)
		restore()
		restore = plinq.SetGrouping(64, merge)
		want := refCountBy(flat, func(v int16) int16 { return v })
		for _, opts := range groupingConfigs() {
			q := plinq.SelectMany(plinq.Range(0, 200).With(opts...), expand)
			if got := must(plinq.CountBy(q, func(v int16) int16 { return v }).ToSlice()); !slices.Equal(got, want) {
				t.Fatalf("merge past %d, %d options: CountBy over SelectMany mismatch (-want +got):\n%s", merge, len(opts), gocmp.Diff(want, got))
			}
		}
		restore()
	}
}
