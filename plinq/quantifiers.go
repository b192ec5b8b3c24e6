package plinq

import "sync/atomic"

// Any reports whether pred reports true for some element of q. pred is
// called concurrently from several goroutines, at most once per element;
// once one call reports true, no chunk starts and running ones stop at their
// next batch. Any of an empty query is false. Any panics if pred is nil.
func (q Query[T]) Any(pred func(T) bool) bool {
	mustFunc("Any", "pred", pred == nil)
	return q.any(pred, true)
}

// Every reports whether pred reports true for every element of q: LINQ's
// All and Rayon's all (in Go, All names an iterator; see Query.All). It
// stops as soon as some call reports false, as Any does. Every of an empty
// query is true. Every panics if pred is nil.
func (q Query[T]) Every(pred func(T) bool) bool {
	mustFunc("Every", "pred", pred == nil)
	return !q.any(pred, false)
}

// Contains reports whether v is an element of q, by ==. It stops as soon as
// v is found, as Any does.
func Contains[T comparable](q Query[T], v T) bool {
	return q.any(func(e T) bool { return e == v }, true)
}

// any reports whether pred(v) == want for some element v of q.
func (q Query[T]) any(pred func(T) bool, want bool) bool {
	x := newExec(q.set)
	f := q.flow(x)
	var found atomic.Bool
	chunks(x, 0, f.n,
		func(w *worker) func(lo, hi int) bool {
			return f.open(w, func(b []T) bool {
				for _, v := range b {
					if pred(v) == want {
						found.Store(true)
						w.l.stopAll() // running chunks stop at their next batch
						return false
					}
				}
				return true
			})
		},
		func(run func(lo, hi int) bool, lo, hi int) bool { return run(lo, hi) }, nil)
	return found.Load()
}
