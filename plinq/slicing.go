package plinq

import (
	"fmt"
	"slices"
)

// Take returns the query of q's first n elements in query order (all of
// them if q has fewer). On an indexed query (see Select) it only narrows
// the range the query runs over, at no cost. On any other it evaluates a
// prefix of q that at most about doubles the one the n elements need, as
// First does, and collects the elements into a slice. Take panics if n < 0.
func (q Query[T]) Take(n int) Query[T] {
	if n < 0 {
		panic(fmt.Sprintf("plinq: Take(%d): negative count", n))
	}
	return derive(q, func(x *exec) flow[T] {
		in := q.flow(x)
		if !in.indexed {
			return ownedFlow(prefix(x, in, n))
		}
		if in.isSlice {
			return in.sub(0, min(n, in.n))
		}
		in.n = min(n, in.n)
		return in
	})
}

// Skip returns the query of q's elements after the first n, in query order
// (none if q has at most n). On an indexed query it only narrows the range
// the query runs over; any other query is first collected into a slice.
// Skip panics if n < 0.
func (q Query[T]) Skip(n int) Query[T] {
	if n < 0 {
		panic(fmt.Sprintf("plinq: Skip(%d): negative count", n))
	}
	return derive(q, func(x *exec) flow[T] {
		in := q.flow(x)
		if !in.indexed || in.isSlice {
			in = materialized(x, in)
			return in.sub(min(n, in.n), in.n)
		}
		k := min(n, in.n)
		return flow[T]{n: in.n - k, indexed: true, open: func(w *worker, sink func([]T) bool) func(lo, hi int) bool {
			run := in.open(w, sink)
			return func(lo, hi int) bool { return run(lo+k, hi+k) }
		}}
	})
}

// TakeWhile returns the query of q's elements before the first one for which
// pred reports false, in query order. pred is called concurrently from
// several goroutines, at most once per element of q; elements after the
// first failing one may or may not be tested (a prefix of q at most about
// twice the answer's, as First evaluates). The result is collected into a
// slice. TakeWhile panics if pred is nil.
func (q Query[T]) TakeWhile(pred func(T) bool) Query[T] {
	mustFunc("TakeWhile", "pred", pred == nil)
	return derive(q, func(x *exec) flow[T] {
		return ownedFlow(prefixWhile(x, takeWhileFlow(q.flow(x), pred)))
	})
}

// takeWhileFlow is in with a stage that stops its chunk at the first
// element pred rejects and cuts the loop there.
func takeWhileFlow[T any](in flow[T], pred func(T) bool) flow[T] {
	return flow[T]{n: in.n, open: func(w *worker, sink func([]T) bool) func(lo, hi int) bool {
		return in.open(w, func(b []T) bool {
			for i, v := range b {
				if !pred(v) {
					w.l.lower(w.lo)
					if i > 0 {
						sink(b[:i])
					}
					return false
				}
			}
			return sink(b)
		})
	}}
}

// SkipWhile returns the query of q's elements from the first one for which
// pred reports false on, in query order. q is first collected into a slice
// (for free if q is a slice), then pred is called on it in parallel, from
// several goroutines, at most once per element, stopping early as First
// does. SkipWhile panics if pred is nil.
func (q Query[T]) SkipWhile(pred func(T) bool) Query[T] {
	mustFunc("SkipWhile", "pred", pred == nil)
	return derive(q, func(x *exec) flow[T] {
		in := materialized(x, q.flow(x))
		s := in.slice
		failing := flow[int]{n: len(s), open: func(w *worker, sink func([]int) bool) func(lo, hi int) bool {
			return func(lo, hi int) bool {
				for i := lo; i < hi; i++ {
					if i%batchLen == 0 && w.stopped() {
						return false
					}
					if !pred(s[i]) {
						return sink([]int{i})
					}
				}
				return true
			}
		}}
		if first := prefix(x, failing, 1); len(first) == 1 {
			return in.sub(first[0], len(s))
		}
		return in.sub(len(s), len(s))
	})
}

// Reverse returns the query of q's elements in reverse query order. An
// indexed query is read backwards chunk by chunk; any other is first
// collected into a slice.
func (q Query[T]) Reverse() Query[T] {
	return derive(q, func(x *exec) flow[T] {
		in := indexed(x, q.flow(x))
		n := in.n
		return flow[T]{n: n, indexed: true, open: func(w *worker, sink func([]T) bool) func(lo, hi int) bool {
			buf := make([]T, batchLen)
			k := 0
			run := in.open(w, func(b []T) bool { k += copy(buf[k:], b); return true })
			return func(lo, hi int) bool {
				// Output [lo, hi) is input [n-hi, n-lo) backwards.
				for e := n - lo; e > n-hi; {
					s := max(e-batchLen, n-hi)
					k = 0
					if !run(s, e) {
						return false
					}
					slices.Reverse(buf[:k])
					if !sink(buf[:k]) {
						return false
					}
					e = s
				}
				return true
			}
		}}
	})
}
