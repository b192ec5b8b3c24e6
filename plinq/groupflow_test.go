package plinq_test

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"testing"

	"github.com/stealkit/stealkit/plinq"
)

// TestGroupByWhereConcurrentRuns: GroupBy queries over Wheres over slices,
// run at the same time over different inputs and keys, each match the
// reference: a block's offsets and local numbers, which runs pass on to
// each other between runs, are not shared by two runs at once.
func TestGroupByWhereConcurrentRuns(t *testing.T) {
	defer plinq.ShrinkSizes()()
	const runs, rounds = 4, 20
	var wg sync.WaitGroup
	errs := make([]error, runs)
	for r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := make([]placed[int], 3000+37*r)
			for i := range in {
				in[i] = placed[int]{i, 1000*r + (i*7+r)%(3+r)}
			}
			key := func(p placed[int]) int { return p.V }
			sel := func(p placed[int]) bool { return p.At%4 != r }
			want := refGroupBy(refWhere(in, sel), key)
			for range rounds {
				got := must(plinq.GroupBy(plinq.From(in).Where(sel), key).ToSlice())
				if !slices.EqualFunc(got, want, func(g plinq.Group[int, placed[int]], w refGroup[int, placed[int]]) bool {
					return g.Key == w.Key && slices.Equal(g.Items, w.Items)
				}) {
					errs[r] = fmt.Errorf("run %d: GroupBy(From(in).Where(sel), key) = %v; want %v", r, got, want)
					return
				}
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestGroupByWhereAllocatedBytes: GroupBy over a Where over a slice
// allocates its groups' items and little beyond them: the selected
// elements' offsets and local numbers are kept from run to run, not
// allocated per run.
func TestGroupByWhereAllocatedBytes(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts take a few runs, and the race detector changes them")
	}
	type row struct {
		Price  int64
		Qty    int32
		Region uint16
		Status uint8
	}
	in := make([]row, 1<<20)
	kept := 0
	for i := range in {
		in[i] = row{Price: int64(i), Region: uint16(i*7) % 16, Status: uint8(i*5) % 4}
		if in[i].Status != 0 {
			kept++
		}
	}
	q := plinq.GroupBy(plinq.From(in).Where(func(r row) bool { return r.Status != 0 }), func(r row) uint16 { return r.Region })
	// As in TestAllocations: collections held off (they empty sync.Pools),
	// and the fewest of three runs (a goroutine that moves to another P
	// misses its pool).
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	must(q.ToSlice())
	fewest := math.Inf(1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		must(q.ToSlice())
		runtime.ReadMemStats(&after)
		fewest = min(fewest, float64(after.TotalAlloc-before.TotalAlloc))
	}
	items := float64(kept) * 16
	if fewest > items*1.1 {
		t.Errorf("GroupBy over a Where over %d rows allocated %.0f bytes; want at most 1.1 times its items' %.0f", len(in), fewest, items)
	}
}
