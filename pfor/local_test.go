package pfor_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

// TestChunksLocalBodyPanicBeatsFinish: when a body panics and finish, called
// after it for every state, panics too, the call re-raises the body's panic,
// the first, as Range would: finish's, which may come of the states the
// body's panic left half made, does not hide its cause. finish still runs,
// and stops at its first panic, as it does after a body that did not panic.
func TestChunksLocalBodyPanicBeatsFinish(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		call string
		run  func(init func() int, body func(int, int, int), finish func(int))
	}{
		{"ChunksLocal", func(init func() int, body func(int, int, int), finish func(int)) {
			pfor.ChunksLocal(0, 1000, init, body, finish, pfor.WithWorkers(2), pfor.WithGrain(10))
		}},
		{"ChunksLocalErr", func(init func() int, body func(int, int, int), finish func(int)) {
			_ = pfor.ChunksLocalErr(ctx, 0, 1000, init, func(s, lo, hi int) error { body(s, lo, hi); return nil },
				finish, pfor.WithWorkers(2), pfor.WithGrain(10))
		}},
	} {
		var made, finished atomic.Int32
		var got any
		func() {
			defer func() { got = recover() }()
			tc.run(func() int { made.Add(1); return 0 },
				func(_, lo, _ int) {
					if lo == 0 {
						panic("body")
					}
				},
				func(int) {
					finished.Add(1)
					panic("finish")
				})
		}()
		if pe, ok := got.(*pfor.PanicError); !ok || pe.Value != "body" || pe.Call != tc.call {
			t.Errorf("%s: body and finish panic: recovered %v; want the body's panic, \"pfor: panic in %[1]s: body\"", tc.call, got)
		}
		if made.Load() == 0 || finished.Load() != 1 {
			t.Errorf("%s: body panicked: finish called %d times for %d states; want once, for the first state, where it panics and stops", tc.call, finished.Load(), made.Load())
		}
	}
}

// TestChunksLocalStateFollowsSlots: ChunksLocal keeps room for the states of
// the worker slots a call has, at most one per item, not for every worker
// WithWorkers asks for: 10 items with a million workers take a few
// kilobytes, where room per worker took megabytes (and WithWorkers(1<<40)
// ran the process out of memory).
func TestChunksLocalStateFollowsSlots(t *testing.T) {
	const items, workers = 10, 1 << 20
	var inits atomic.Int32
	call := func() {
		pfor.ChunksLocal(0, items, func() []int { inits.Add(1); return nil },
			func([]int, int, int) {}, func([]int) {}, pfor.WithWorkers(workers))
	}
	call() // the pool and the call's pooled objects are warm
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	call()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
		t.Errorf("ChunksLocal over %d items with WithWorkers(%d): %d bytes allocated; want at most 64 KiB", items, workers, got)
	}
	if got := inits.Load(); got > 2*items {
		t.Errorf("ChunksLocal over %d items, 2 calls: init called %d times; want at most one per slot, %d", items, got, 2*items)
	}
}
