package pfor_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

var errShutdown = errors.New("shutting down")

// A causer makes a context that is done with errShutdown as its cause,
// either at once (done) or when the call under test has started and calls
// stop (mid): canceled by context.WithCancelCause, or by
// context.WithTimeoutCause's timer, for which stop waits.
type causer struct {
	name string
	want error // context.Canceled or context.DeadlineExceeded
	make func(mid bool) (ctx context.Context, stop func(), release func())
}

func causers() []causer {
	return []causer{
		{"WithCancelCause", context.Canceled, func(mid bool) (context.Context, func(), func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			stop := sync.OnceFunc(func() { cancel(errShutdown) })
			if !mid {
				stop()
			}
			return ctx, stop, func() { cancel(nil) }
		}},
		{"WithTimeoutCause", context.DeadlineExceeded, func(mid bool) (context.Context, func(), func()) {
			d := time.Nanosecond
			if mid {
				d = 20 * time.Millisecond
			}
			ctx, cancel := context.WithTimeoutCause(context.Background(), d, errShutdown)
			stop := func() { <-ctx.Done() }
			if !mid {
				stop()
			}
			return ctx, stop, cancel
		}},
	}
}

// TestErrCarriesCause: every call that takes a context returns, once the
// context is done with a cause (before the call, or while it runs with
// work left), an error that is both the context's error and the cause to
// errors.Is.
func TestErrCarriesCause(t *testing.T) {
	const n = 1 << 16
	in := make([]int, n)
	opts := []pfor.Option{pfor.WithWorkers(2)} // a loop on the pool, not inline
	calls := []struct {
		name string
		call func(ctx context.Context, stop func()) error
	}{
		{"RangeErr", func(ctx context.Context, stop func()) error {
			return pfor.RangeErr(ctx, 0, n, func(int) error { stop(); return nil }, opts...)
		}},
		{"ChunksErr", func(ctx context.Context, stop func()) error {
			return pfor.ChunksErr(ctx, 0, n, func(int, int) error { stop(); return nil }, append(opts, pfor.WithGrain(1))...)
		}},
		{"ChunksLocalErr", func(ctx context.Context, stop func()) error {
			return pfor.ChunksLocalErr(ctx, 0, n, func() int { return 0 }, func(int, int, int) error { stop(); return nil }, nil, append(opts, pfor.WithGrain(1))...)
		}},
		{"MapErr", func(ctx context.Context, stop func()) error {
			_, err := pfor.MapErr(ctx, in, func(x int) (int, error) { stop(); return x, nil }, opts...)
			return err
		}},
		{"ScanErr", func(ctx context.Context, stop func()) error {
			_, err := pfor.ScanErr(ctx, in, 0, func(a, b int) int { stop(); return a + b }, opts...)
			return err
		}},
		{"ScanExclusiveErr", func(ctx context.Context, stop func()) error {
			_, err := pfor.ScanExclusiveErr(ctx, in, 0, func(a, b int) int { stop(); return a + b }, opts...)
			return err
		}},
		{"Group", func(ctx context.Context, stop func()) error {
			g, _ := pfor.NewGroup(ctx)
			g.Go(func(*pfor.Worker) error { stop(); return nil })
			g.Go(func(*pfor.Worker) error { return nil })
			g.Wait() // the first task may not have been skipped: then the next is
			g.Go(func(*pfor.Worker) error { return nil })
			return g.Wait()
		}},
	}
	for _, c := range causers() {
		for _, mid := range []bool{false, true} {
			for _, tc := range calls {
				name := fmt.Sprintf("%s/%s/mid=%v", c.name, tc.name, mid)
				ctx, stop, release := c.make(mid)
				err := tc.call(ctx, stop)
				release()
				if !errors.Is(err, c.want) || !errors.Is(err, errShutdown) {
					t.Errorf("%s: error %v; want one that is %v and the cause %v to errors.Is", name, err, c.want, errShutdown)
				}
			}
		}
	}
}

// TestErrWithoutCauseIsCtxErr: a context canceled without a cause of its
// own makes the calls return ctx.Err() itself, as before causes existed.
func TestErrWithoutCauseIsCtxErr(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := pfor.RangeErr(ctx, 0, 10, func(int) error { return nil }); err != context.Canceled {
		t.Errorf("RangeErr with a canceled context: %v; want context.Canceled itself", err)
	}
	mid, cancelMid := context.WithCancel(context.Background())
	err := pfor.RangeErr(mid, 0, 1<<16, func(int) error { cancelMid(); return nil }, pfor.WithWorkers(2))
	if err != context.Canceled {
		t.Errorf("RangeErr with a context canceled while it runs: %v; want context.Canceled itself", err)
	}
}
