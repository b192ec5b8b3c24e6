package plinq

import (
	"iter"
	"slices"
)

// ToSlice runs q and returns its elements in a new slice, in query order
// unless q is Unordered. An indexed query (see Select) writes each chunk
// straight into its place in the result; any other gathers per-worker
// buffers and copies them into a result allocated once: O(n) time and
// memory, and O(chunks) allocations besides the result. A query that ends
// in a materializing operator (OrderBy, GroupBy, Distinct, ...) hands over
// that operator's result without copying it. The result never aliases q's
// source; it is nil if q is empty, as slices.Collect's is.
func (q Query[T]) ToSlice() (elems []T, err error) {
	defer catch(&err)
	x := newExec(q.set)
	f := q.flow(x)
	if f.n == 0 {
		return nil, nil
	}
	if f.isSlice {
		if f.owned { // made by this run (a sort's or a group's result): hand it over
			return f.slice, nil
		}
		return slices.Clone(f.slice), nil
	}
	s := collect(x, f, !x.unordered)
	if len(s) == 0 {
		return nil, nil
	}
	return s, nil
}

// ForAll runs q and calls f with each element, concurrently from several
// goroutines and in no particular order: the parallel for-each, with no
// result to assemble. f must be safe for concurrent use. ForAll panics if f
// is nil.
func (q Query[T]) ForAll(f func(T)) (err error) {
	mustFunc("ForAll", "f", f == nil)
	defer catch(&err)
	x := newExec(q.set)
	in := q.flow(x)
	chunks(x, 0, in.n,
		func(w *worker) func(lo, hi int) bool {
			return in.open(w, func(b []T) bool {
				for _, v := range b {
					f(v)
				}
				return true
			})
		},
		func(run func(lo, hi int) bool, lo, hi int) bool { run(lo, hi); return true }, nil)
	return nil
}

// ForAllErr is ForAll with a function that can fail: once a call returns an error, no chunk after its element
// starts and running ones stop at their next batch, while those before it
// run to the end, and ForAllErr returns the error of the first failing
// element in query order (see SelectErr). f is called concurrently from
// several goroutines, at most once per element, in no particular order.
// ForAllErr panics if f is nil.
func (q Query[T]) ForAllErr(f func(T) error) (err error) {
	mustFunc("ForAllErr", "f", f == nil)
	defer catch(&err)
	x := newExec(q.set)
	in := q.flow(x)
	chunks(x, 0, in.n,
		func(w *worker) func(lo, hi int) bool {
			return in.open(w, func(b []T) bool {
				for _, v := range b {
					if err := f(v); err != nil {
						w.fail(err)
						return false
					}
				}
				return true
			})
		},
		func(run func(lo, hi int) bool, lo, hi int) bool { run(lo, hi); return true }, nil)
	return nil
}

// Values returns an iterator over q's elements in query order (any order if
// q is Unordered), for range loops and slices.Collect, and a function that
// reports why the latest iteration over it stopped early: nil if it ran to
// the end or the loop broke out, else the run's error, as for any terminal
// operation. As with bufio.Scanner and sql.Rows, call it after the loop:
//
//	values, errf := q.Values()
//	for v := range values {
//		...
//	}
//	if err := errf(); err != nil {
//		...
//	}
//
// The report is shared by every iteration over the sequence, so iterate it
// from one goroutine at a time, or call Values once per goroutine. Each
// iteration runs q afresh: it computes the elements in parallel a
// window of q's source at a time (up to about a million indices), and calls
// the loop body on the iterating goroutine, sequentially; breaking out of
// the loop stops the query after the current window. A window's elements
// are yielded once the whole window is computed, so a run that fails yields
// the windows before the failing one and none of its elements, and a
// context canceled inside the loop body still yields the rest of the
// current window (of a query that is a slice and nothing more, the whole
// slice) before the run stops. A panic in
// the loop body is the caller's own and passes through unchanged. (The
// quantifier that LINQ calls All is Every.)
func (q Query[T]) Values() (iter.Seq[T], func() error) {
	var failed error
	return func(yield func(T) bool) {
		failed = nil
		defer catch(&failed)
		x := newExec(q.set)
		stream(x, q.flow(x), !x.unordered, yield)
	}, func() error { return failed }
}

// All is Values with each element's position in the results: 0, 1, ...,
// as slices.All yields (index, value).
func (q Query[T]) All() (iter.Seq2[int, T], func() error) {
	values, errf := q.Values()
	return func(yield func(int, T) bool) {
		i := 0
		for v := range values {
			if !yield(i, v) {
				return
			}
			i++
		}
	}, errf
}
