package pfor_test

import (
	"context"
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
