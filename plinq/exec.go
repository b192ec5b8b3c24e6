package plinq

import (
	"context"
	"errors"
	"runtime/debug"

	"github.com/stealkit/stealkit/internal/callname"
	"github.com/stealkit/stealkit/pfor"
)

// An exec is one run of a query by a terminal operation: its options and
// its context, shared by every loop the run makes.
type exec struct {
	opts      []pfor.Option
	blockOpts []pfor.Option // opts for loops over blocks: one block at a time
	ctx       context.Context
	done      <-chan struct{} // ctx.Done(), polled by every runner before each batch; nil if ctx is never done
	unordered bool
}

// newExec starts a run; it panics with *canceledError if the query's
// context is already done.
func newExec(s *settings) *exec {
	x := &exec{ctx: context.Background()}
	if s != nil {
		x.opts, x.unordered = s.opts, s.unordered
		if s.ctx != nil {
			x.ctx = s.ctx
		}
	}
	x.check()
	x.done = x.ctx.Done()
	x.opts = append(x.opts[:len(x.opts):len(x.opts)], callname.Option(opName).(pfor.Option))
	x.blockOpts = append(x.opts[:len(x.opts):len(x.opts)], pfor.WithGrain(1))
	return x
}

// canceled reports whether the run's context is done. Polling the channel
// costs a few nanoseconds, which is why runners do it once per batch.
// (Watching ctx with context.AfterFunc to raise a flag was rejected: the
// callback's goroutine waits for a free P, and with every P running a
// worker it waited up to a 10 ms time slice, in which the workers ran on.)
func (x *exec) canceled() bool {
	select {
	case <-x.done:
		return true
	default:
		return false
	}
}

// opName is the name a *pfor.PanicError gives the operation whose
// function panicked.
const opName = "plinq query"

// errStop is how a chunk body stops its loop early; it never reaches users.
var errStop = errors.New("plinq: stop")

// chunks runs body over chunks of [lo, hi) in parallel with the query's
// options. Each worker slot gets a worker and a state made by init on its
// goroutine before its first chunk; body runs one chunk and returns false to
// stop the loop (no chunk starts after that); finish gets each state, in
// slot order, on the caller's goroutine once every worker has stopped.
// Panics in init or body reach the caller as *pfor.PanicError; if the run is
// canceled, chunks panics with *canceledError after the loop has stopped.
func chunks[S any](x *exec, lo, hi int, init func(w *worker) S, body func(s S, lo, hi int) bool, finish func(S)) *loop {
	return loopOver(x, x.opts, lo, hi, init, body, finish)
}

// blocks is chunks over block numbers [0, n): it hands out one block at a
// time whatever the query's grain, which counts elements.
func blocks[S any](x *exec, n int, init func(w *worker) S, body func(s S, lo, hi int) bool, finish func(S)) *loop {
	return loopOver(x, x.blockOpts, 0, n, init, body, finish)
}

// blockChunks is chunks over [0, n) in whole blocks of blockLen(n)
// indices, one block at a time like blocks: for reductions, which gain
// nothing from finer chunks and pay for each. The workers' lo is the first
// block's number, which orders chunks as their starts would.
func blockChunks[S any](x *exec, n int, init func(w *worker) S, body func(s S, lo, hi int) bool, finish func(S)) *loop {
	bl := blockLen(n)
	return blocks(x, (n+bl-1)/bl, init, func(s S, b0, b1 int) bool { return body(s, b0*bl, min(b1*bl, n)) }, finish)
}

// each runs body over block numbers [0, n) in parallel, for loops with no
// per-worker state.
func each(x *exec, n int, body func(lo, hi int)) {
	blocks(x, n, func(*worker) struct{} { return struct{}{} },
		func(_ struct{}, lo, hi int) bool { body(lo, hi); return true }, nil)
}

// A slot is what pfor keeps per worker slot for a loop: the runners' view
// of it and the terminal's state.
type slot[S any] struct {
	w worker
	s S
}

func loopOver[S any](x *exec, opts []pfor.Option, lo, hi int, init func(w *worker) S, body func(s S, lo, hi int) bool, finish func(S)) *loop {
	l := newLoop(x)
	var fin func(*slot[S])
	if finish != nil {
		fin = func(sl *slot[S]) { finish(sl.s) }
	}
	err := pfor.ChunksLocalErr(x.ctx, lo, hi,
		func() *slot[S] {
			sl := &slot[S]{w: worker{l: l, lo: lo}}
			sl.s = init(&sl.w)
			return sl
		},
		func(sl *slot[S], lo, hi int) error {
			sl.w.lo = lo
			if !body(sl.s, lo, hi) {
				return errStop
			}
			return nil
		}, fin, opts...)
	if err != nil && err != errStop { // bodies return only errStop: any other error is ctx's
		panic(&canceledError{err})
	}
	x.check()
	return l
}

// check panics with *canceledError if the run's context is done.
func (x *exec) check() {
	if err := x.ctx.Err(); err != nil {
		panic(&canceledError{err})
	}
}

// canceledError is the panic value of a terminal operation whose context
// was done; Try turns it back into the context's error.
type canceledError struct{ err error }

func (e *canceledError) Error() string {
	return "plinq: query canceled: " + e.err.Error() + " (run the terminal operation inside plinq.Try to get this as an error)"
}

func (e *canceledError) Unwrap() error { return e.err }

// Try calls f, which runs terminal operations of queries, and returns its
// result and nil. If a terminal operation run by f stops because its query's
// context (see WithContext) is done, Try returns the zero R and the
// context's error, ctx.Err(). Other panics, *pfor.PanicError from a query's
// functions among them, pass through. Method values make it short:
//
//	names, err := plinq.Try(q.WithContext(ctx).ToSlice)
func Try[R any](f func() R) (r R, err error) {
	defer func() {
		if v := recover(); v != nil {
			e, ok := v.(error)
			var c *canceledError
			if !ok || !errors.As(e, &c) { // errors.As also finds one inside a *pfor.PanicError of a nested query
				panic(v)
			}
			var zero R
			r, err = zero, c.err
		}
	}()
	return f(), nil
}

// guard calls f, which calls user functions on the caller's goroutine, and
// re-raises a panic in it as a *pfor.PanicError, as pfor does for those
// called by workers: every panic of a query's functions reaches its caller
// the same way.
func guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*pfor.PanicError); ok {
				panic(r)
			}
			if _, ok := r.(*canceledError); ok {
				panic(r)
			}
			panic(&pfor.PanicError{Value: r, Stack: debug.Stack(), Call: opName})
		}
	}()
	f()
}
