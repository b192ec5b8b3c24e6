package plinq

import (
	"context"
	"errors"
	"runtime/debug"

	"github.com/stealkit/stealkit/internal/callname"
	"github.com/stealkit/stealkit/internal/ctxerr"
	"github.com/stealkit/stealkit/pfor"
)

// An exec is one run of a query by a terminal operation: its options and
// its contexts, shared by every loop the run makes.
//
// A run that fails (a context is done, a user function returned an error)
// unwinds by panicking with a stop on the goroutine that called the
// terminal operation, and the terminal's deferred catch turns the stop into
// its returned error, as encoding/json and text/template unwind: a stop
// never crosses the package boundary. Plans and loops thus need no error
// plumbing, and a stop is never raised on a worker: workers record an
// error in their loop (worker.fail), and the loop raises it on the caller
// once every worker has stopped.
type exec struct {
	opts      []pfor.Option
	blockOpts []pfor.Option   // opts for loops over blocks: one block at a time
	ctx       context.Context // handed to pfor: ctxs[0], or Background
	ctxs      []context.Context
	dones     []<-chan struct{} // ctxs' Done channels that can close, polled by every runner before each batch
	unordered bool
}

// newExec starts a run; it raises a stop if one of the query's contexts is
// already done.
func newExec(s *settings) *exec {
	x := &exec{ctx: context.Background()}
	if s != nil {
		x.opts, x.unordered, x.ctxs = s.opts, s.unordered, s.ctxs
	}
	for _, c := range x.ctxs {
		if d := c.Done(); d != nil {
			x.dones = append(x.dones, d)
		}
	}
	if len(x.ctxs) > 0 {
		x.ctx = x.ctxs[0]
	}
	x.check()
	x.opts = append(x.opts[:len(x.opts):len(x.opts)], callname.Option(opName).(pfor.Option))
	x.blockOpts = append(x.opts[:len(x.opts):len(x.opts)], pfor.WithGrain(1))
	return x
}

// canceled reports whether one of the run's contexts is done. Polling a
// channel is a receive that does not block, cheap enough that runners do it
// once per batch. (Watching ctx with context.AfterFunc to raise a flag was
// rejected: the callback's goroutine waits for a free P, and with every P
// running a worker it can wait a whole scheduling time slice, in which the
// workers run on.)
func (x *exec) canceled() bool {
	for _, d := range x.dones {
		select {
		case <-d:
			return true
		default:
		}
	}
	return false
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
// canceled or a worker failed (worker.fail), chunks raises a stop after the
// loop has stopped.
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
			sl.w.lo, sl.w.failed = lo, false
			if !body(sl.s, lo, hi) {
				return errStop
			}
			return nil
		}, fin, opts...)
	if err != nil && err != errStop { // bodies return only errStop: any other error is ctx's
		panic(stop{err})
	}
	if err := l.failure(); err != nil {
		panic(stop{err})
	}
	x.check()
	return l
}

// check raises a stop if one of the run's contexts is done: the error is
// that of the first such context in the query's list.
func (x *exec) check() {
	for _, c := range x.ctxs {
		if err := ctxerr.Of(c); err != nil {
			panic(stop{err})
		}
	}
}

// A stop is the panic that ends a failed run; see exec.
type stop struct{ err error }

// catch, deferred by every terminal operation, turns a stop of its run into
// the error *err; it re-raises any other panic. A stop is raised only on the
// goroutine of the terminal operation whose run failed, and every terminal
// operation catches its own, so the stop caught is always this run's.
func catch(err *error) {
	if r := recover(); r != nil {
		s, ok := r.(stop)
		if !ok {
			panic(r)
		}
		*err = s.err
	}
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
			if _, ok := r.(stop); ok {
				panic(r)
			}
			panic(&pfor.PanicError{Value: r, Stack: debug.Stack(), Call: opName})
		}
	}()
	f()
}
