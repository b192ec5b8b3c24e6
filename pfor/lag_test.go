package pfor_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// The lagging state (see lag.go): while the operating system keeps taking
// the process's threads off their cores, a call starts on the caller alone
// and brings in helpers only once it has run for a while.

// TestLaggingShortCallRunsOnTheCaller: a call shorter than the lazy delay
// runs as worker 0 alone, which a call that starts its partitioner at once
// never does with 4 workers: worker 0's block is a quarter of the range, and
// more work comes to it only by stealing or on other slots. (A call can
// outlast the delay on a loaded machine, so the test gives it a few tries.)
func TestLaggingShortCallRunsOnTheCaller(t *testing.T) {
	pfor.SetLagging(t, true)
	var st pfor.Stats
	for try := 0; ; try++ {
		var ran atomic.Int32
		pfor.Range(0, 100, func(int) { ran.Add(1) }, pfor.WithWorkers(4), pfor.WithStats(&st))
		if ran.Load() != 100 || statItems(st) != 100 {
			t.Fatalf("ran %d items, Stats count %d; want 100", ran.Load(), statItems(st))
		}
		if st.Workers[0].Items == 100 && st.Workers[0].Steals == 0 {
			return
		}
		if try == 9 {
			t.Fatalf("10 short calls while lagging, none ran as worker 0 alone; the last:\n%v", st.String())
		}
	}
}

// TestLaggingStartsWithOneItem: the caller's first batch is one item, as
// the items' cost is not known yet: were each to take 10 ms, a batch of 16
// would run 160 ms before any helper came in.
func TestLaggingStartsWithOneItem(t *testing.T) {
	pfor.SetLagging(t, true)
	var first atomic.Int64
	pfor.Chunks(0, 1000, func(lo, hi int) {
		if lo == 0 {
			first.Store(int64(hi))
		}
	}, pfor.WithWorkers(4))
	if first.Load() != 1 {
		t.Errorf("the first chunk was [0, %d); want [0, 1)", first.Load())
	}
}

// TestLaggingKeepsPromisedRanges: calls whose partitioner promises its
// ranges (static blocks, dynamic chunks of a fixed size) hand them out as
// promised while lagging; only the default's batches start on the caller.
func TestLaggingKeepsPromisedRanges(t *testing.T) {
	pfor.SetLagging(t, true)
	var st pfor.Stats
	pfor.Range(0, 100, func(int) {}, pfor.WithWorkers(4), pfor.WithPartitioner(partition.Static()), pfor.WithStats(&st))
	for w, ws := range st.Workers {
		if ws.Chunks != 1 || ws.Items != 25 {
			t.Errorf("static, worker %d: %d items in %d chunks; want its block, 25 items in 1 chunk", w, ws.Items, ws.Chunks)
		}
	}
	pfor.Range(0, 100, func(int) {}, pfor.WithWorkers(4), pfor.WithPartitioner(partition.Dynamic(5)), pfor.WithStats(&st))
	for w, ws := range st.Workers {
		if ws.Items != 5*ws.Chunks {
			t.Errorf("dynamic(5), worker %d: %d items in %d chunks; want chunks of 5", w, ws.Items, ws.Chunks)
		}
	}
	if statItems(st) != 100 {
		t.Errorf("dynamic(5): Stats count %d items; want 100", statItems(st))
	}
}

// TestLaggingLongCallGetsHelpers: a call that outlasts the lazy delay brings
// in helpers for the rest of its range, and every item runs once.
func TestLaggingLongCallGetsHelpers(t *testing.T) {
	pfor.SetLagging(t, true)
	me := goid()
	const n = 200
	var other atomic.Int32
	runs := make([]atomic.Int32, n)
	var st pfor.Stats
	pfor.Range(0, n, func(i int) {
		runs[i].Add(1)
		if goid() != me {
			other.Add(1)
		}
		time.Sleep(50 * time.Microsecond)
	}, pfor.WithWorkers(4), pfor.WithStats(&st))
	for i := range runs {
		if r := runs[i].Load(); r != 1 {
			t.Fatalf("item %d ran %d times; want once", i, r)
		}
	}
	if other.Load() == 0 {
		t.Errorf("a 10 ms loop with 4 workers ran entirely on the caller's goroutine while lagging")
	}
	if got := statItems(st); got != n {
		t.Errorf("Stats count %d items; want %d", got, n)
	}
}

// TestLaggingCallsFailAsOthers: errors, panics and cancellation reach the
// caller whether they happen while the caller runs alone (early items) or
// after helpers came in (late items of a long call).
func TestLaggingCallsFailAsOthers(t *testing.T) {
	pfor.SetLagging(t, true)
	boom := errors.New("boom")
	const n = 400
	slow := func(i int) {
		if i >= 10 {
			time.Sleep(20 * time.Microsecond) // the call outlasts the lazy delay
		}
	}
	for _, at := range []int{3, n - 1} {
		err := pfor.RangeErr(context.Background(), 0, n, func(i int) error {
			slow(i)
			if i == at {
				return boom
			}
			return nil
		}, pfor.WithWorkers(4))
		if !errors.Is(err, boom) {
			t.Errorf("error at item %d: RangeErr returned %v; want %v", at, err, boom)
		}

		var pe *pfor.PanicError
		func() {
			defer func() { pe, _ = recover().(*pfor.PanicError) }()
			pfor.Range(0, n, func(i int) {
				slow(i)
				if i == at {
					panic(boom)
				}
			}, pfor.WithWorkers(4))
		}()
		if pe == nil || pe.Value != boom {
			t.Errorf("panic at item %d: Range panicked with %v; want a *PanicError of %v", at, pe, boom)
		}

		ctx, cancel := context.WithCancel(context.Background())
		var ran atomic.Int32
		err = pfor.RangeErr(ctx, 0, n, func(i int) error {
			ran.Add(1)
			slow(i)
			if i == at {
				cancel()
			}
			return nil
		}, pfor.WithWorkers(4))
		cancel()
		if at < n-1 && (!errors.Is(err, context.Canceled) || ran.Load() == n) {
			t.Errorf("canceled at item %d: RangeErr returned %v after %d of %d items; want %v, items left out",
				at, err, ran.Load(), n, context.Canceled)
		}
	}
}

func statItems(st pfor.Stats) int64 {
	var n int64
	for _, w := range st.Workers {
		n += w.Items
	}
	return n
}

// BenchmarkLagging runs tiny (2000 back-to-back calls of 1,000 items of
// about 10 ns) with the default partitioner in the normal state (helpers
// from the start), in the lagging state (each call on the caller alone, as
// it is shorter than the lazy delay) and sequentially, to compare within
// one run: BenchmarkLagging/state=normal|lagging|sequential.
func BenchmarkLagging(b *testing.B) {
	w, _ := workload.ByName("tiny")
	for _, state := range []string{"normal", "lagging", "sequential"} {
		b.Run("state="+state, func(b *testing.B) {
			pfor.SetLagging(b, state == "lagging")
			inst := w.New(0)
			b.ReportAllocs()
			for b.Loop() {
				for range w.Calls {
					if state == "sequential" {
						inst.Chunk(0, inst.Len())
					} else {
						pfor.Chunks(0, inst.Len(), inst.Chunk)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*w.Calls), "us/call")
		})
	}
}
