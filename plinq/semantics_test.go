package plinq_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// TestReuse: a query is a value: running it twice, or from several
// goroutines at once, gives the same result, and branching it into two
// queries changes neither.
func TestReuse(t *testing.T) {
	var calls atomic.Int64
	base := plinq.Range(0, 10_000).Where(func(i int) bool { calls.Add(1); return i%3 != 0 })
	a := plinq.Select(base, func(i int) int { return i * 2 })
	b := base.OrderByDescending(func(x, y int) int { return x - y }).Take(5)
	first, second := must(a.ToSlice()), must(a.ToSlice())
	if d := gocmp.Diff(first, second); d != "" {
		t.Errorf("running a query twice differs (-first +second):\n%s", d)
	}
	if got, want := must(b.ToSlice()), []int{9998, 9997, 9995, 9994, 9992}; !slices.Equal(got, want) {
		t.Errorf("branch b = %v; want %v", got, want)
	}
	if got := len(must(a.ToSlice())); got != 6666 {
		t.Errorf("branch a after running b has %d elements; want 6666", got)
	}
	if c := calls.Load(); c != 4*10_000 {
		t.Errorf("Where's pred called %d times in 4 runs; want once per element per run, %d", c, 4*10_000)
	}
	// Runs of one query from several goroutines at once share nothing.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if got := must(plinq.GroupBy(b, func(i int) int { return i % 2 }).Count()); got != 2 {
				t.Errorf("concurrent run: %d groups; want 2", got)
			}
		})
	}
	wg.Wait()
	seq := plinq.FromSeq(slices.Values([]int{1, 2, 3}))
	if must(seq.Count()) != 3 || must(plinq.Sum(seq)) != 6 {
		t.Error("a FromSeq query does not read its sequence again when run again")
	}
}

// TestIndexedCountCallsNothing: Count of an indexed query knows its length.
func TestIndexedCountCallsNothing(t *testing.T) {
	q := plinq.Select(plinq.Range(0, 1000), func(int) int { panic("called") }).Skip(10).Take(500)
	if got := must(q.Count()); got != 500 {
		t.Errorf("Count() = %d; want 500", got)
	}
}

// TestToSliceDoesNotAlias: the result is the caller's to change, and the
// source is never written.
func TestToSliceDoesNotAlias(t *testing.T) {
	src := []int{1, 2, 3}
	got := must(plinq.From(src).ToSlice())
	got[0] = 100
	sorted := must(plinq.From(src).OrderBy(func(a, b int) int { return b - a }).ToSlice())
	sorted[0] = 200
	must(plinq.From(src).Take(2).Skip(1).ToSlice())[0] = 300
	if !slices.Equal(src, []int{1, 2, 3}) {
		t.Errorf("source changed to %v", src)
	}
}

// TestNestedQueries: a query may run inside another's functions.
func TestNestedQueries(t *testing.T) {
	got := must(plinq.Select(plinq.Range(0, 50), func(i int) int { return must(plinq.Sum(plinq.Range(0, i))) }).ToSlice())
	for i, s := range got {
		if s != i*(i-1)/2 {
			t.Fatalf("nested Sum at %d = %d; want %d", i, s, i*(i-1)/2)
		}
	}
}

// TestDeterministicReductions: float Sum, Average and AggregateBy are the
// same bit for bit whatever the workers and the partitioner.
func TestDeterministicReductions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := make([]float64, 300_000)
	for i := range s {
		s[i] = r.NormFloat64() * 1e6
	}
	q := plinq.From(s).Where(func(f float64) bool { return f > -1e6 })
	wantSum, wantAvg := must(plinq.Sum(q.With(pfor.WithWorkers(1)))), must(plinq.Average(q.With(pfor.WithWorkers(1))))
	wantByKey := sumsByKey(q.With(pfor.WithWorkers(1)))
	for _, w := range []int{2, 3, 7} {
		for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(3), partition.Auto()} {
			qq := q.With(pfor.WithWorkers(w), pfor.WithPartitioner(p))
			if got := must(plinq.Sum(qq)); got != wantSum {
				t.Errorf("Sum with %d workers, %s = %v; want %v as with one", w, p.Name(), got, wantSum)
			}
			if got := must(plinq.Average(qq)); got != wantAvg {
				t.Errorf("Average with %d workers, %s = %v; want %v as with one", w, p.Name(), got, wantAvg)
			}
			if got := sumsByKey(qq); !slices.Equal(got, wantByKey) {
				t.Errorf("AggregateBy sums with %d workers, %s = %v; want %v as with one", w, p.Name(), got, wantByKey)
			}
		}
	}
}

// keyOf, add and sumsByKey: a float sum per key, for TestDeterministicReductions.
func keyOf(f float64) int { return int(math.Abs(f)) % 7 }

func add(a, b float64) float64 { return a + b }

func sumsByKey(q plinq.Query[float64]) []plinq.KeyValue[int, float64] {
	return must(plinq.AggregateBy(q, keyOf, 0, add, add).ToSlice())
}

// TestLargeSortsAndGroups: the package's real block sizes, on inputs that
// cross them: radix sorts with buckets sorted both sequentially and
// recursively, merge sorts with several levels, groups over several blocks.
func TestLargeSortsAndGroups(t *testing.T) {
	n := 300_000
	if testing.Short() || raceEnabled {
		n = 100_000
	}
	r := rand.New(rand.NewPCG(5, 6))
	type rec struct{ K, I int }
	s := make([]rec, n)
	for i := range s {
		k := r.IntN(1 << 20) // spread: many buckets
		if i%3 == 0 {
			k = r.IntN(4) // and a few keys shared by a third: buckets big enough to recurse, and ties
		}
		s[i] = rec{k, i}
	}
	q := plinq.From(s).With(pfor.WithWorkers(3))
	byK := func(a, b rec) int { return cmp.Compare(a.K, b.K) }
	want := refSort(s, byK)
	if d := gocmp.Diff(want, must(plinq.OrderByKey(q, func(x rec) int { return x.K }).ToSlice())); d != "" {
		t.Errorf("OrderByKey (radix) differs from the stable reference:\n%s", d[:min(len(d), 2000)])
	}
	m := min(n, 50_000) // several merge levels; comparison sorts are slow under -race
	if d := gocmp.Diff(refSort(s[:m], byK), must(q.Take(m).OrderBy(byK).ToSlice())); d != "" {
		t.Errorf("OrderBy (merge) differs from the stable reference:\n%s", d[:min(len(d), 2000)])
	}
	key := func(x rec) int { return x.K % 1000 }
	wantG := refGroupBy(s, key)
	gotG := must(plinq.GroupBy(q, key).ToSlice())
	if len(gotG) != len(wantG) {
		t.Fatalf("GroupBy made %d groups; want %d", len(gotG), len(wantG))
	}
	for g := range gotG {
		if gotG[g].Key != wantG[g].Key || !slices.Equal(gotG[g].Items, wantG[g].Items) {
			t.Fatalf("GroupBy group %d = key %d with %d items; want key %d with %d items, in order", g, gotG[g].Key, len(gotG[g].Items), wantG[g].Key, len(wantG[g].Items))
		}
	}
	if got, want := must(plinq.DistinctBy(q, key).ToSlice()), refDistinctBy(s, key); !slices.Equal(got, want) {
		t.Errorf("DistinctBy over several blocks differs from the reference")
	}
}

// TestAllocations: a fused Where+Select+ToSlice allocates its result and a
// number of buffers that grows with the chunks, not with the elements.
func TestAllocations(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts take a few runs, and the race detector changes them")
	}
	count := func(n int, opts ...pfor.Option) float64 {
		q := plinq.Select(plinq.Range(0, n).With(opts...).Where(func(i int) bool { return i%3 != 0 }), func(i int) int { return i / 2 })
		// A garbage collection during a run empties the sync.Pools, and the
		// run remakes what they held, so collections are held off while
		// counting. A sync.Pool also keeps a list per P: a goroutine that
		// moves to another P misses and allocates. The fewest of three
		// averages is the query's own count.
		runtime.GC()
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		fewest := math.Inf(1)
		for range 3 {
			fewest = min(fewest, testing.AllocsPerRun(5, func() { must(q.ToSlice()) }))
			runtime.GC()
		}
		return fewest
	}
	// Two workers, one chunk each: a fixed set of buffers, the result, and
	// each worker's pages: doubling from 1024 elements to 1 MiB (128K
	// ints), then 1 MiB each. A 1M-element run outputs 333K ints per worker
	// (9 pages each), a 4M one 1.33M (17 pages each). pfor reuses its call
	// objects and partition runs through sync.Pools, which garbage
	// collections empty: the bigger runs collect more often, and remake a
	// few (the pooled allowances).
	static := []pfor.Option{pfor.WithWorkers(2), pfor.WithPartitioner(partition.Static())}
	small, big, bigger := count(1<<12, static...), count(1<<20, static...), count(1<<22, static...)
	t.Logf("static: %v allocations for 4K elements, %v for 1M, %v for 4M", small, big, bigger)
	if small > 80 || big > small+2*9+8+4 || bigger > big+2*8+2+6 {
		t.Errorf("static: %v allocations for 4K elements, %v for 1M, %v for 4M; want under 80, +2*9 pages (+8 for parallel copying, +4 pooled), +2*8 pages (+2, +6 pooled)",
			small, big, bigger)
	}
	// Dynamic chunks of 1024: the 1024 chunks' segment lists grow by doubling.
	if dyn := count(1<<20, pfor.WithWorkers(2), pfor.WithPartitioner(partition.Dynamic(1024))); dyn > big+2*10+4 {
		t.Errorf("dynamic(1024): %v allocations for 1M elements in 1024 chunks; want at most %v", dyn, big+2*10+4)
	}
}
