package plinq

import (
	"iter"
	"slices"
)

// ToSlice runs q and returns its elements in a new slice, in query order
// unless q is Unordered. An indexed query (see Select) writes each chunk
// straight into its place in the result; any other gathers per-worker
// buffers and copies them, in chunk order, into a result allocated once:
// the allocations are the result's, a buffer page per MiB of it, and
// O(chunks). A query that ends in a materializing operator (OrderBy,
// GroupBy, Distinct, ...) hands over that operator's result without copying
// it. The result never aliases q's source; it is nil if q is empty, as
// slices.Collect's is.
func (q Query[T]) ToSlice() []T {
	x := newExec(q.set)
	f := q.flow(x)
	if f.n == 0 {
		return nil
	}
	if f.isSlice {
		if f.owned { // made by this run (a sort's or a group's result): hand it over
			return f.slice
		}
		return slices.Clone(f.slice)
	}
	s := collect(x, f, !x.unordered)
	if len(s) == 0 {
		return nil
	}
	return s
}

// ForAll runs q and calls f with each element, concurrently from several
// goroutines and in no particular order: the parallel for-each, with no
// result to assemble. f must be safe for concurrent use. ForAll panics if f
// is nil.
func (q Query[T]) ForAll(f func(T)) {
	mustFunc("ForAll", "f", f == nil)
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
}

// All returns an iterator over q's elements in query order (any order if q
// is Unordered), for range loops and slices.Collect. Each iteration runs q
// afresh: it computes the elements in parallel a window at a time (windows
// of up to 1<<20 indices of q's source, doubling from 4096), and calls the
// loop body on the iterating goroutine, sequentially; breaking out of the
// loop stops the query after the current window. (The quantifier that LINQ
// calls All is Every, as All names iterators in Go.)
func (q Query[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		x := newExec(q.set)
		stream(x, q.flow(x), !x.unordered, yield)
	}
}

// Enumerate is All with each element's position in the results: 0, 1, ...
func (q Query[T]) Enumerate() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		i := 0
		for v := range q.All() {
			if !yield(i, v) {
				return
			}
			i++
		}
	}
}
