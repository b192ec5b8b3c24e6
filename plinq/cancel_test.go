package plinq_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// canceledAfter returns q with a context that q's k-th element cancels (the
// query counts the elements it sees), and the cancel function.
func canceledAfter(q plinq.Query[int], k int64) (plinq.Query[int], context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	var seen atomic.Int64
	return q.Where(func(int) bool {
		if seen.Add(1) == k {
			cancel()
		}
		return true
	}).WithContext(ctx), cancel
}

// TestCanceledBeforeStart: a query whose context is already done does no
// work, and Try returns the context's error.
func TestCanceledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int64
	q := plinq.Range(0, 1<<20).Where(func(int) bool { calls.Add(1); return true }).WithContext(ctx)
	if got, err := plinq.Try(q.ToSlice); got != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Try(ToSlice) = %d elements, %v; want none, context.Canceled", len(got), err)
	}
	if c := calls.Load(); c != 0 {
		t.Errorf("pred called %d times; want 0", c)
	}
}

// TestCancelStopsPromptly: once the context is done, every worker stops
// before its next batch, with every partitioner, even Static's one chunk
// per worker, and the terminal operation reports ctx.Err().
func TestCancelStopsPromptly(t *testing.T) {
	const n, k = 1 << 24, 5000
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(1 << 20), partition.Auto()} {
		var calls atomic.Int64
		src := plinq.Range(0, n).With(pfor.WithWorkers(2), pfor.WithPartitioner(p)).Where(func(int) bool { calls.Add(1); return true })
		q, cancel := canceledAfter(src, k)
		for name, run := range map[string]func() any{
			"Count":   func() any { return q.Count() },
			"Sum":     func() any { return plinq.Sum(q) },
			"ToSlice": func() any { return q.ToSlice() },
			"OrderBy": func() any { return plinq.OrderByKey(q, func(i int) int { return -i }).First() },
		} {
			calls.Store(0)
			q, cancel = canceledAfter(src, k)
			_, err := plinq.Try(run)
			cancel()
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s with %s: Try error %v; want context.Canceled", name, p.Name(), err)
			}
			// The canceling worker and the other one finish the batches they
			// are in; under load a few more batches have been seen to start
			// (OrderBy with auto: 1,468 more elements once in CI), so the
			// bound is 64 batches, still under 0.1% of the n elements a run
			// that did not stop would process.
			if c := calls.Load(); c > k+64*256 {
				t.Errorf("%s with %s: %d elements processed, cancellation at the %dth; want at most 64 more batches of 256", name, p.Name(), c, k)
			}
		}
		cancel()
	}
}

// TestCanceledPanicsWithoutTry: outside Try, cancellation is a panic whose
// value wraps ctx.Err() and tells what to do.
func TestCanceledPanicsWithoutTry(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "plinq: query canceled") {
			t.Errorf("recovered %v; want a plinq: query canceled error wrapping context.DeadlineExceeded", err)
		}
	}()
	plinq.Range(0, 100).WithContext(ctx).Count()
	t.Error("Count with an expired context returned")
}

// TestTryPassesOtherPanics: Try only turns cancellation into an error.
func TestTryPassesOtherPanics(t *testing.T) {
	msg := catch(func() { plinq.Try(func() int { panic("not mine") }) })
	if msg != "not mine" {
		t.Errorf("Try let through %q; want the original panic %q", msg, "not mine")
	}
	defer func() {
		if _, ok := recover().(*pfor.PanicError); !ok {
			t.Error("Try of a query whose function panicked did not re-raise the *pfor.PanicError")
		}
	}()
	plinq.Try(func() int { return plinq.Range(0, 10).Where(func(int) bool { panic(errBoom) }).Count() })
}

// TestCancelWhileIterating: an iteration over All stops with the query's
// context, between windows, and Try reports it; a nested query canceled
// inside another's function reaches the outer Try too.
func TestCancelWhileIterating(t *testing.T) {
	q, cancel := canceledAfter(plinq.Range(0, 1<<22), 100_000)
	defer cancel()
	seen := 0
	_, err := plinq.Try(func() int {
		for range q.All() {
			seen++
		}
		return seen
	})
	if !errors.Is(err, context.Canceled) || seen >= 1<<22 {
		t.Errorf("iteration saw %d elements and Try returned %v; want fewer than all and context.Canceled", seen, err)
	}

	ctx, cancel2 := context.WithCancel(context.Background())
	cancel2()
	inner := plinq.Range(0, 10).WithContext(ctx)
	_, err = plinq.Try(plinq.Select(plinq.Range(0, 4), func(int) int { return inner.Count() }).ToSlice)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("nested canceled query: Try returned %v; want context.Canceled", err)
	}
}
