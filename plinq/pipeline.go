package plinq

import (
	"math"
	"sync"
	"sync/atomic"
)

// Shared internals: how a planned query runs.
//
// A terminal operation plans its query for one run (Query.flow): operators
// that must see all of their input first (OrderBy, GroupBy, Distinct, ...)
// run then, and every other operator becomes a stage of a flow. A flow
// produces the query's elements for any range of an index space [0, n): the
// source's indices for a slice or a Range, a window of them after Skip. The
// terminal runs the flow over chunks of that space in parallel; each worker
// opens the flow once, which composes the stages into one loop with their
// buffers, and then runs chunk after chunk through it:
//
//	source batch of <= 256 elements -> Where's loop -> Select's loop -> terminal's sink
//
// so consecutive element-wise operators cost one indirect call per element
// for each user function and one per batch between stages, and no
// intermediate slice is ever longer than a batch.
//
// A flow is indexed when every index yields exactly one element, element i
// of the query coming from index i (From, Range, Select, Zip, Take, ...);
// then the terminal knows the length and where each chunk's output goes.
// Other flows (after Where, SelectMany) yield any number of elements per
// index; concatenating the outputs of consecutive ranges, in range order,
// gives the query's sequence.

// batchLen is the most elements a stage hands on at a time: big enough that
// the per-batch calls vanish, small enough that each stage's buffer stays in
// the L1 cache. It and the other sizes of this package are variables only
// so that tests can shrink them (export_test.go).
var batchLen = 256

// A flow is a query planned for one run.
type flow[T any] struct {
	n       int          // the index space is [0, n)
	indexed bool         // index i yields exactly element i of the query
	isSlice bool         // the query is exactly slice (then indexed): materializing it costs nothing
	slice   []T          // read-only unless owned: it may be the caller's
	owned   bool         // slice was made by this run, and ToSlice may return it
	filter  *filtered[T] // not nil if the flow is a Where over a slice (see sliceElems)

	// open makes one worker's runner: run(lo, hi) pushes the elements that
	// the indices [lo, hi) yield, in query order, to sink in non-empty
	// batches of at most batchLen, and reports whether it got to hi: it
	// returns false as soon as sink returns false or the worker is stopped
	// (checked before every source batch). sink must neither keep nor
	// change a batch: stages reuse their buffers, and a slice source passes
	// the caller's memory. open is called on the worker's goroutine; a
	// runner is driven by one goroutine at a time.
	open func(w *worker, sink func([]T) bool) (run func(lo, hi int) bool)
}

// sliceFlow is the indexed flow over the elements of s.
func sliceFlow[T any](s []T) flow[T] {
	return flow[T]{n: len(s), indexed: true, isSlice: true, slice: s,
		open: func(w *worker, sink func([]T) bool) func(lo, hi int) bool {
			return func(lo, hi int) bool {
				for lo < hi {
					if w.stopped() {
						return false
					}
					e := lo + min(batchLen, hi-lo)
					if !sink(s[lo:e:e]) {
						return false
					}
					lo = e
				}
				return true
			}
		}}
}

// ownedFlow is sliceFlow for a slice the run made: no one else holds it.
func ownedFlow[T any](s []T) flow[T] {
	f := sliceFlow(s)
	f.owned = true
	return f
}

// sub is the slice flow over f.slice[lo:hi], owned if f is; f must be a
// slice flow.
func (f flow[T]) sub(lo, hi int) flow[T] {
	g := sliceFlow(f.slice[lo:hi])
	g.owned = f.owned
	return g
}

// materialized returns f as a slice flow: f itself if it is one, else the
// flow over its elements collected in query order.
func materialized[T any](x *exec, f flow[T]) flow[T] {
	if f.isSlice {
		return f
	}
	return ownedFlow(collect(x, f, true))
}

// generate is the indexed flow of n elements whose runner fills a batch
// buffer with fill(buf, lo) for the indices [lo, lo+len(buf)).
func generate[T any](n int, fill func(buf []T, lo int)) flow[T] {
	return flow[T]{n: n, indexed: true,
		open: func(w *worker, sink func([]T) bool) func(lo, hi int) bool {
			buf := make([]T, batchLen)
			return func(lo, hi int) bool {
				for lo < hi {
					if w.stopped() {
						return false
					}
					b := buf[:min(batchLen, hi-lo)]
					fill(b, lo)
					if !sink(b) {
						return false
					}
					lo += len(b)
				}
				return true
			}
		}}
}

// A batcher collects a stage's outputs into batches for its sink.
type batcher[U any] struct {
	w    *worker
	sink func([]U) bool
	buf  []U // capacity batchLen
}

// add appends u, handing on a full batch; false: stop the chunk.
func (b *batcher[U]) add(u U) bool {
	b.buf = append(b.buf, u)
	if len(b.buf) < batchLen {
		return true
	}
	ok := b.sink(b.buf)
	b.buf = b.buf[:0]
	return ok && !b.w.stopped()
}

// flush hands on the chunk's last, partial batch.
func (b *batcher[U]) flush() bool {
	if len(b.buf) == 0 {
		return true
	}
	ok := b.sink(b.buf)
	b.buf = b.buf[:0]
	return ok
}

// A loop is one parallel pass of a run over an index space.
type loop struct {
	x *exec
	// cut: chunks that start after cut stop at their next batch and their
	// output is dropped. MaxInt64 until an early exit lowers it to the
	// start of the chunk that found the answer; -1 stops every chunk.
	cut atomic.Int64

	mu    sync.Mutex
	err   error // the error of the failed chunk with the lowest start, nil if none
	errLo int   // that chunk's start
}

func newLoop(x *exec) *loop {
	l := &loop{x: x}
	l.cut.Store(math.MaxInt64)
	return l
}

// lower lowers the cut to lo if it is higher.
func (l *loop) lower(lo int) {
	for {
		c := l.cut.Load()
		if int64(lo) >= c || l.cut.CompareAndSwap(c, int64(lo)) { // CAS commits the lower cut
			return
		}
	}
}

// stopAll stops every chunk of the loop.
func (l *loop) stopAll() {
	l.cut.Store(-1)
	if onStopAll != nil {
		onStopAll()
	}
}

// onStopAll, if not nil, is called by stopAll after the stop, on the
// goroutine that stops the loop. Nil but in tests (export_test.go), which
// order their steps after an early exit with it.
var onStopAll func()

// wasCut reports whether an early exit lowered the cut.
func (l *loop) wasCut() bool { return l.cut.Load() != math.MaxInt64 }

// failure returns the error that fails the loop once every worker has
// stopped: that of the failed chunk with the lowest start, if no early exit
// cut the loop before it. The chunks before a failed chunk run to the end,
// as they do before a cut, so this is the error a sequential loop would
// meet first, and the same in every run.
func (l *loop) failure() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil || int64(l.errLo) > l.cut.Load() {
		return nil
	}
	return l.err
}

// A worker is one worker slot of a loop, as its runners see it. Only the
// goroutine driving the slot touches it.
type worker struct {
	l      *loop
	lo     int  // start of the chunk being run
	failed bool // a stage failed in this chunk (see fail)
}

// stopped reports whether the worker must stop its chunk: the run was
// canceled, a stage failed in it, or an early exit or a failure in an
// earlier chunk made it useless.
func (w *worker) stopped() bool {
	return w.failed || int64(w.lo) > w.l.cut.Load() || w.l.x.canceled()
}

// fail records that a user function failed with err in the worker's chunk,
// and cuts the loop there: chunks after it stop at their next batch. The
// stage that calls it stops its chunk, and must first hand on the elements
// before the failing one, since a later stage may fail on one of those
// first, or an early exit may need no more.
func (w *worker) fail(err error) {
	l := w.l
	l.mu.Lock()
	if l.err == nil || w.lo < l.errLo {
		l.err, l.errLo = err, w.lo
	}
	l.mu.Unlock()
	l.lower(w.lo)
	w.failed = true // the chunk stops even where a terminal runs it in pieces (foldBlocks)
}
