package pfor_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/trace"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// goid returns the current goroutine's id, parsed from its stack header.
func goid() string {
	buf := make([]byte, 64)
	return strings.Fields(string(buf[:runtime.Stack(buf, false)]))[1]
}

// TestSmallWorkRunsInline: when hi-lo is at most the grain, or there is one
// worker, the body runs on the caller's goroutine and no helper is involved.
func TestSmallWorkRunsInline(t *testing.T) {
	me := goid()
	for _, tc := range []struct {
		name string
		n    int
		opts []pfor.Option
	}{
		{"below the grain", 100, []pfor.Option{pfor.WithGrain(100), pfor.WithWorkers(4)}},
		{"one worker", 10_000, []pfor.Option{pfor.WithWorkers(1)}},
		{"one item", 1, []pfor.Option{pfor.WithWorkers(4)}},
	} {
		var other atomic.Int32
		pfor.Range(0, tc.n, func(int) {
			if goid() != me {
				other.Add(1)
			}
		}, tc.opts...)
		if other.Load() != 0 {
			t.Errorf("%s: %d items ran on another goroutine; want all inline", tc.name, other.Load())
		}
	}
}

// TestLargeWorkUsesHelpers: the converse, so that the inline test can fail.
// The caller's items wait until another goroutine has run one, however long
// a helper takes to get a core: a loop run inline fails after a minute. The
// pool is kept out of its late state, whose calls start on the caller
// alone.
func TestLargeWorkUsesHelpers(t *testing.T) {
	pfor.SetLate(t, false)
	me := goid()
	var other atomic.Int32
	deadline := time.Now().Add(time.Minute)
	pfor.Range(0, 200, func(int) {
		if goid() != me {
			other.Add(1)
			return
		}
		for other.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Microsecond)
		}
	}, pfor.WithWorkers(4))
	if other.Load() == 0 {
		t.Errorf("a loop of 200 items with 4 workers, whose caller waited a minute for a helper, ran entirely on the caller's goroutine")
	}
}

// TestChunksLocal: init runs at most once per worker, finish once per state
// on the caller's goroutine in slot order, and per-worker partial histograms
// merge to the right totals.
func TestChunksLocal(t *testing.T) {
	const n, buckets, workers = 100_000, 16, 6
	me := goid()
	var inits atomic.Int32
	total := make([]int, buckets)
	finished := 0
	pfor.ChunksLocal(0, n, func() []int {
		inits.Add(1)
		return make([]int, buckets)
	}, func(h []int, lo, hi int) {
		for i := lo; i < hi; i++ {
			h[i%buckets]++
		}
	}, func(h []int) {
		if goid() != me {
			t.Errorf("finish ran on goroutine %s; want the caller's, %s", goid(), me)
		}
		finished++
		for b, c := range h {
			total[b] += c
		}
	}, pfor.WithWorkers(workers), pfor.WithGrain(64))
	if got := inits.Load(); got < 1 || got > workers {
		t.Errorf("init ran %d times; want 1 to %d (at most once per worker)", got, workers)
	}
	if finished != int(inits.Load()) {
		t.Errorf("finish ran %d times for %d states; want once per state", finished, inits.Load())
	}
	for b, c := range total {
		if c != n/buckets {
			t.Errorf("bucket %d: %d; want %d", b, c, n/buckets)
		}
	}
}

// TestReduceDeterministic: a float sum is bitwise identical across runs,
// worker counts and partitioners for the same input and grain, and equals
// the documented block-by-block order computed sequentially.
func TestReduceDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	in := make([]float64, 300_001)
	for i := range in {
		in[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)))
	}
	add := func(a, b float64) float64 { return a + b }
	for _, grain := range []int{0, 1000, 4097} {
		block := grain
		if block == 0 {
			block = max(1024, len(in)/4096)
		}
		var want float64
		for b := 0; b < len(in); b += block {
			part := 0.0
			for _, x := range in[b:min(b+block, len(in))] {
				part += x
			}
			if b == 0 {
				want = part
			} else {
				want += part
			}
		}
		for _, p := range partitioners {
			for _, w := range []int{1, 2, 3, 7, 16} {
				opts := []pfor.Option{pfor.WithPartitioner(p), pfor.WithWorkers(w)}
				if grain > 0 {
					opts = append(opts, pfor.WithGrain(grain))
				}
				got := pfor.Reduce(in, 0.0, add, add, opts...)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("grain %d, %s, %d workers: Reduce = %v; want bitwise %v", grain, p.Name(), w, got, want)
				}
			}
		}
	}
}

// TestReduceNonCommutative: combine need only be associative: string
// concatenation keeps input order.
func TestReduceNonCommutative(t *testing.T) {
	in := make([]string, 5000)
	var want strings.Builder
	for i := range in {
		in[i] = string(rune('a' + i%26))
		want.WriteString(in[i])
	}
	cat := func(a, b string) string { return a + b }
	got := pfor.Reduce(in, "", cat, cat, pfor.WithGrain(7), pfor.WithWorkers(5))
	if got != want.String() {
		t.Fatalf("Reduce with concatenation lost input order")
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		call, want string
		f          func()
	}{
		{"Range(5, 3)", "pfor: Range(5, 3): hi < lo", func() { pfor.Range(5, 3, func(int) {}) }},
		{"Chunks(0, -1)", "pfor: Chunks(0, -1): hi < lo", func() { pfor.Chunks(0, -1, func(int, int) {}) }},
		{"RangeErr nil body", "pfor: RangeErr: body is nil", func() { pfor.RangeErr(context.Background(), 0, 1, nil) }},
		{"RangeErr nil ctx", "pfor: RangeErr: ctx is nil; use context.Background()", func() { pfor.RangeErr(nil, 0, 1, func(int) error { return nil }) }},
		{"ChunksErr nil ctx", "pfor: ChunksErr: ctx is nil; use context.Background()", func() { pfor.ChunksErr(nil, 0, 0, func(int, int) error { return nil }) }},
		{"ChunksLocalErr nil ctx", "pfor: ChunksLocalErr: ctx is nil; use context.Background()", func() {
			pfor.ChunksLocalErr(nil, 0, 1, func() int { return 0 }, func(int, int, int) error { return nil }, nil)
		}},
		{"MapErr nil ctx", "pfor: MapErr: ctx is nil; use context.Background()", func() { pfor.MapErr(nil, []int{1}, func(x int) (int, error) { return x, nil }) }},
		{"ScanErr nil ctx", "pfor: ScanErr: ctx is nil; use context.Background()", func() { pfor.ScanErr(nil, []int{1}, 0, func(a, b int) int { return a + b }) }},
		{"ScanExclusiveErr nil ctx", "pfor: ScanExclusiveErr: ctx is nil; use context.Background()", func() {
			pfor.ScanExclusiveErr(nil, []int{1}, 0, func(a, b int) int { return a + b })
		}},
		{"Range nil body", "pfor: Range: body is nil", func() { pfor.Range(0, 1, nil) }},
		{"WithWorkers(0)", "pfor: WithWorkers(0): need at least one worker", func() { pfor.WithWorkers(0) }},
		{"WithWorkers(-3)", "pfor: WithWorkers(-3)", func() { pfor.WithWorkers(-3) }},
		{"WithGrain(0)", "pfor: WithGrain(0): grain must be at least 1", func() { pfor.WithGrain(0) }},
		{"WithPartitioner(nil)", "pfor: WithPartitioner: p is nil", func() { pfor.WithPartitioner(nil) }},
		{"WithStats(nil)", "pfor: WithStats: s is nil", func() { pfor.WithStats(nil) }},
		{"MapErr nil option", "pfor: MapErr: opts[1] is nil", func() {
			pfor.MapErr(context.Background(), []int{1}, func(x int) (int, error) { return x, nil }, pfor.WithWorkers(1), nil)
		}},
		{"RangeErr nil option", "pfor: RangeErr: opts[0] is nil", func() {
			pfor.RangeErr(context.Background(), 0, 1, func(int) error { return nil }, nil)
		}},
		{"Map nil f", "pfor: Map: f is nil", func() { pfor.Map[int, int]([]int{1}, nil) }},
		{"Reduce nil combine", "pfor: Reduce: combine is nil", func() {
			pfor.Reduce([]int{1}, 0, func(a, b int) int { return a }, nil)
		}},
		{"Do nil", "pfor: Do: fns[1] is nil", func() { pfor.Do(func() {}, nil) }},
		{"ReduceRange(MinInt, MaxInt)", fmt.Sprintf("pfor: ReduceRange(%d, %d): more than MaxInt indices", math.MinInt, math.MaxInt), func() {
			pfor.ReduceRange(math.MinInt, math.MaxInt, 0, func(a, i int) int { return a }, func(a, b int) int { return a })
		}},
		{"ReduceRange(-1, MaxInt)", fmt.Sprintf("pfor: ReduceRange(-1, %d): more than MaxInt indices", math.MaxInt), func() {
			pfor.ReduceRange(-1, math.MaxInt, 0, func(a, i int) int { return a }, func(a, b int) int { return a })
		}},
		{"ChunksLocal nil init", "pfor: ChunksLocal: init is nil", func() {
			pfor.ChunksLocal[int](0, 1, nil, func(int, int, int) {}, nil)
		}},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tc.want) {
					t.Errorf("%s: panic %v; want one containing %q", tc.call, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

// TestErrorsStopWork: the first error stops new chunks and is returned;
// bodies already running finish.
func TestErrorsStopWork(t *testing.T) {
	errBad := errors.New("bad item")
	for _, p := range []partition.Partitioner{partition.Dynamic(8), partition.Stealing(), partition.Auto()} {
		var ran atomic.Int64
		err := pfor.RangeErr(context.Background(), 0, 1_000_000, func(i int) error {
			ran.Add(1)
			if i == 100 {
				return fmt.Errorf("item %d: %w", i, errBad)
			}
			return nil
		}, pfor.WithPartitioner(p), pfor.WithWorkers(4), pfor.WithGrain(8))
		if !errors.Is(err, errBad) {
			t.Errorf("%s: RangeErr returned %v; want the body's error", p.Name(), err)
		}
		if ran.Load() > 500_000 {
			t.Errorf("%s: %d items ran after an early error; want work to stop", p.Name(), ran.Load())
		}
	}
}

// TestContextCancellation: a context done before the call runs nothing and
// is reported, for an empty range too; one cancelled during the call stops
// new chunks and its error is returned; one cancelled after all work was
// handed out does not turn success into error.
func TestContextCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	if err := pfor.RangeErr(ctx, 0, 10, func(int) error { called = true; return nil }); !errors.Is(err, context.Canceled) || called {
		t.Errorf("done context: err %v, body called %v; want context.Canceled and no call", err, called)
	}
	if err := pfor.RangeErr(ctx, 0, 0, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("done context, empty range: err %v; want context.Canceled", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	var ran atomic.Int64
	err := pfor.ChunksErr(ctx, 0, 1_000_000, func(lo, hi int) error {
		if ran.Add(int64(hi-lo)) > 1000 {
			cancel()
		}
		return nil
	}, pfor.WithWorkers(4), pfor.WithGrain(10))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during the call: err %v; want context.Canceled", err)
	}
	if ran.Load() > 200_000 {
		t.Errorf("cancelled during the call: %d items ran; want work to stop promptly", ran.Load())
	}

	ctx, cancel = context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if err := pfor.RangeErr(ctx, 0, 1000, func(int) error { return nil }); err != nil {
		t.Errorf("live context: err %v; want nil", err)
	}
}

// TestStats: WithStats reports every item, the partitioner, steals on
// uneven work, and follows GOMAXPROCS changes (never cached).
func TestStats(t *testing.T) {
	for _, procs := range []int{3, 2} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			var s pfor.Stats
			pfor.Range(0, 4000, func(i int) {
				if i >= 3000 {
					time.Sleep(time.Microsecond)
				}
			}, pfor.WithStats(&s))
			if len(s.Workers) != procs {
				t.Errorf("GOMAXPROCS=%d: stats for %d workers; want %d", procs, len(s.Workers), procs)
			}
			var items, steals int64
			for _, w := range s.Workers {
				items += w.Items
				steals += w.Steals
			}
			if items != 4000 || s.Partitioner != "auto" {
				t.Errorf("stats: %d items with %q; want 4000 with \"auto\"\n%v", items, s.Partitioner, &s)
			}
		}()
	}
}

// TestTraceRegions: with runtime/trace on, each worker slot is a region
// named for the loop.
func TestTraceRegions(t *testing.T) {
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Fatalf("trace.Start: %v", err)
	}
	pfor.Range(0, 1000, func(int) {}, pfor.WithLabel("histogram"), pfor.WithWorkers(2))
	trace.Stop()
	if !bytes.Contains(buf.Bytes(), []byte("pfor histogram")) {
		t.Errorf("trace has no region named %q", "pfor histogram")
	}
}
