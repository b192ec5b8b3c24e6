package plinq_test

import (
	"context"
	"errors"
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
// work, and returns the context's error.
func TestCanceledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int64
	q := plinq.Range(0, 1<<20).Where(func(int) bool { calls.Add(1); return true }).WithContext(ctx)
	if got, err := q.ToSlice(); got != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("ToSlice = %d elements, %v; want none, context.Canceled", len(got), err)
	}
	if c := calls.Load(); c != 0 {
		t.Errorf("pred called %d times; want 0", c)
	}
}

// TestEveryTerminalReturnsCtxErr: every terminal operation of a query whose
// context is done returns the context's error.
func TestEveryTerminalReturnsCtxErr(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q := plinq.Range(0, 1000).WithContext(ctx)
	for _, term := range terminals {
		if got, err := term.try(q); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a canceled context = %v, %v; want context.Canceled", term.name, got, err)
		}
	}
}

// TestCancelStopsPromptly: once the context is done, every worker stops
// before its next batch, with every partitioner, even Static's one chunk
// per worker, and the terminal operation returns ctx.Err().
func TestCancelStopsPromptly(t *testing.T) {
	const n, k = 1 << 24, 5000
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(1 << 20), partition.Auto()} {
		for name, run := range map[string]func(q plinq.Query[int]) error{
			"Count":   func(q plinq.Query[int]) error { _, err := q.Count(); return err },
			"Sum":     func(q plinq.Query[int]) error { _, err := plinq.Sum(q); return err },
			"ToSlice": func(q plinq.Query[int]) error { _, err := q.ToSlice(); return err },
			"OrderBy": func(q plinq.Query[int]) error {
				_, err := plinq.OrderByKey(q, func(i int) int { return -i }).First()
				return err
			},
		} {
			// The kth call cancels, then notes how many calls there were
			// once cancel has returned: the goroutine that cancels may be
			// taken off its core between the two, while the other worker
			// runs on, so the bound counts from the later figure.
			ctx, cancel := context.WithCancel(context.Background())
			var calls, atCancel atomic.Int64
			q := plinq.Range(0, n).With(pfor.WithWorkers(2), pfor.WithPartitioner(p)).Where(func(int) bool {
				if calls.Add(1) == k {
					cancel()
					atCancel.Store(calls.Load())
				}
				return true
			}).WithContext(ctx)
			err := run(q)
			cancel()
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s with %s: error %v; want context.Canceled", name, p.Name(), err)
			}
			// Each worker finishes the batch it is in; the bound is 64
			// batches, under 0.1% of the n elements a run that did not stop
			// would process.
			if c, at := calls.Load(), atCancel.Load(); c > at+64*256 {
				t.Errorf("%s with %s: %d elements processed, %d when cancel had returned; want at most 64 more batches of 256", name, p.Name(), c, at)
			}
		}
	}
}

// TestCanceledReturnsDeadline: a deadline's error comes back as it is, not
// as a panic.
func TestCanceledReturnsDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if n, err := plinq.Range(0, 100).WithContext(ctx).Count(); n != 0 || err != context.DeadlineExceeded {
		t.Errorf("Count with an expired context = %d, %v; want 0, context.DeadlineExceeded", n, err)
	}
}

// TestPanicsStayPanics: a panic in a query's function reaches the caller
// as a *pfor.PanicError, not as an error.
func TestPanicsStayPanics(t *testing.T) {
	defer func() {
		if _, ok := recover().(*pfor.PanicError); !ok {
			t.Error("Count of a query whose function panicked did not panic with a *pfor.PanicError")
		}
	}()
	plinq.Range(0, 10).Where(func(int) bool { panic(errBoom) }).Count()
	t.Error("Count of a query whose function panicked returned")
}

// TestCancelWhileIterating: an iteration over Values stops with the query's
// context, between windows, and the error function reports it; a nested
// query canceled inside another's function returns its error there, which
// SelectErr hands on.
func TestCancelWhileIterating(t *testing.T) {
	q, cancel := canceledAfter(plinq.Range(0, 1<<22), 100_000)
	defer cancel()
	seen := 0
	seq, errf := q.Values()
	for range seq {
		seen++
	}
	if err := errf(); !errors.Is(err, context.Canceled) || seen >= 1<<22 {
		t.Errorf("iteration saw %d elements and reported %v; want fewer than all and context.Canceled", seen, err)
	}

	ctx, cancel2 := context.WithCancel(context.Background())
	cancel2()
	inner := plinq.Range(0, 10).WithContext(ctx)
	_, err := plinq.SelectErr(plinq.Range(0, 4), func(int) (int, error) { return inner.Count() }).ToSlice()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("nested canceled query: ToSlice returned %v; want context.Canceled", err)
	}
}

// TestCtxErrCarriesCause: a query whose context is done with a cause of
// its own (context.WithCancelCause, WithTimeoutCause) returns an error
// that is both the context's error and the cause to errors.Is, from every
// terminal operation when the context is done before it starts, and from
// a run canceled midway: by the query's own context, and by the second of
// two contexts, which pfor's loops do not watch.
func TestCtxErrCarriesCause(t *testing.T) {
	errShutdown := errors.New("shutting down")
	caused, cancel := context.WithCancelCause(context.Background())
	cancel(errShutdown)
	timed, stop := context.WithTimeoutCause(context.Background(), time.Nanosecond, errShutdown)
	defer stop()
	<-timed.Done()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{{"WithCancelCause", caused, context.Canceled}, {"WithTimeoutCause", timed, context.DeadlineExceeded}} {
		q := plinq.Range(0, 1000).WithContext(c.ctx)
		for _, term := range terminals {
			if got, err := term.try(q); !errors.Is(err, c.want) || !errors.Is(err, errShutdown) {
				t.Errorf("%s: %s = %v, %v; want an error that is %v and the cause", c.name, term.name, got, err, c.want)
			}
		}
	}
	for _, second := range []bool{false, true} {
		ctx, cancel := context.WithCancelCause(context.Background())
		var seen atomic.Int64
		q := plinq.Range(0, 1<<20).Where(func(int) bool {
			if seen.Add(1) == 5000 {
				cancel(errShutdown)
			}
			return true
		})
		if second {
			q = q.WithContext(context.Background())
		}
		_, err := q.WithContext(ctx).ToSlice()
		if !errors.Is(err, context.Canceled) || !errors.Is(err, errShutdown) {
			t.Errorf("ToSlice canceled midway (second context %v): %v; want an error that is context.Canceled and the cause", second, err)
		}
	}
}
