package plinq_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// TestScanParallel: Scan and ScanExclusive of an input long enough for the
// parallel plan equal the sequential scan, element by element, for an
// associative, non-commutative op (the last 12 bytes of a concatenation),
// under every config, after a filter (which is collected first).
func TestScanParallel(t *testing.T) {
	const n = 100_003
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(i%10) + ","
	}
	op := func(a, b string) string { c := a + b; return c[len(c)-min(len(c), 12):] }
	keep := func(v string) bool { return v != "3," }
	src := refWhere(s, keep)
	for _, inclusive := range []bool{true, false} {
		want := refScan(src, "", op, inclusive)
		for _, opts := range configs() {
			q := plinq.From(s).With(opts...).Where(keep)
			var got []string
			if inclusive {
				got = must(plinq.Scan(q, "", op).ToSlice())
			} else {
				got = must(plinq.ScanExclusive(q, "", op).ToSlice())
			}
			if !slices.Equal(got, want) {
				t.Fatalf("inclusive=%v with %d options: the scan differs from the sequential one", inclusive, len(opts))
			}
		}
	}
}

// TestScanIsPforScan: Scan and ScanExclusive of a slice source give
// pfor.Scan's and pfor.ScanExclusive's results bit for bit, for a float sum
// long enough for the parallel plan, whatever the workers.
func TestScanIsPforScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := make([]float64, 700_001)
	for i := range s {
		s[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(12)))
	}
	add := func(a, b float64) float64 { return a + b }
	incl, excl := pfor.Scan(s, 0, add), pfor.ScanExclusive(s, 0, add)
	for _, w := range []int{1, 2, 3} {
		q := plinq.From(s).With(pfor.WithWorkers(w))
		if got := must(plinq.Scan(q, 0, add).ToSlice()); !slices.Equal(got, incl) {
			t.Errorf("Scan with %d workers differs from pfor.Scan", w)
		}
		if got := must(plinq.ScanExclusive(q, 0, add).ToSlice()); !slices.Equal(got, excl) {
			t.Errorf("ScanExclusive with %d workers differs from pfor.ScanExclusive", w)
		}
	}
}

// TestScanCanceled: a Scan whose context is done before the run calls op
// never and returns the context's error; one whose op cancels the context
// midway returns the context's error and no elements.
func TestScanCanceled(t *testing.T) {
	s := make([]int, 1<<17)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int64
	add := func(a, b int) int { calls.Add(1); return a + b }
	if got, err := plinq.Scan(plinq.From(s).WithContext(ctx), 0, add).ToSlice(); got != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Scan with a canceled context = %d elements, %v; want none, context.Canceled", len(got), err)
	}
	if c := calls.Load(); c != 0 {
		t.Errorf("Scan with a canceled context called op %d times; want 0", c)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	cancelAt := func(a, b int) int {
		if calls.Add(1) == 1000 {
			cancel()
		}
		return a + b
	}
	q := plinq.From(s).WithContext(ctx).With(pfor.WithWorkers(2))
	if got, err := plinq.ScanExclusive(q, 0, cancelAt).ToSlice(); got != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("ScanExclusive canceled by op = %d elements, %v; want none, context.Canceled", len(got), err)
	}
}

// TestScanPanics: a panic in op, on a worker or where the caller combines
// the carries, reaches the caller of the terminal operation as a
// *pfor.PanicError holding the value.
func TestScanPanics(t *testing.T) {
	s := make([]int, 1<<17)
	for i := range s {
		s[i] = 1
	}
	for name, op := range map[string]func(a, b int) int{
		"op on a worker": func(a, b int) int { panic(errBoom) },
		"op in the carries": func(a, b int) int {
			if b > 1 { // only a block's fold is more than 1
				panic(errBoom)
			}
			return a + b
		},
	} {
		func() {
			defer func() {
				v := recover()
				if pe, ok := v.(*pfor.PanicError); !ok || !errors.Is(pe, errBoom) {
					t.Errorf("Scan with a panicking %s: recovered %T %v; want a *pfor.PanicError of errBoom", name, v, v)
				}
			}()
			plinq.Scan(plinq.From(s).With(pfor.WithWorkers(2)), 0, op).ToSlice()
		}()
	}
}

// TestChunkSizeNearMaxInt: a batch size that no count of elements reaches,
// up to math.MaxInt, makes one batch of every element, of an indexed query
// and of another: counting the batches must not overflow.
func TestChunkSizeNearMaxInt(t *testing.T) {
	src := plinq.Range(0, 10)
	for _, q := range []plinq.Query[int]{src, src.Where(func(int) bool { return true })} {
		for _, n := range []int{11, math.MaxInt / 2, math.MaxInt - 9, math.MaxInt - 8, math.MaxInt} {
			got := must(plinq.Chunk(q, n).ToSlice())
			if len(got) != 1 || !slices.Equal(got[0], []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
				t.Errorf("Chunk(%d) of 0..9: %v; want one batch of all 10", n, got)
			}
		}
	}
}

// TestChunkDoesNotAlias: Chunk's batches of a slice source are copies,
// capped: writing to or appending to a batch changes neither the source
// nor the next batch.
func TestChunkDoesNotAlias(t *testing.T) {
	s := []int{0, 1, 2, 3, 4}
	batches := must(plinq.Chunk(plinq.From(s), 2).ToSlice())
	batches[0][0] = 100
	_ = append(batches[0], 200)
	if !slices.Equal(s, []int{0, 1, 2, 3, 4}) || batches[1][0] != 2 {
		t.Errorf("after writing to and appending to batch 0: source %v, batch 1 %v; want both unchanged", s, batches[1])
	}
}
