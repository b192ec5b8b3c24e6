package plinq

import (
	"sync"
	"sync/atomic"
)

// Any reports whether pred reports true for some element of q. pred is
// called concurrently from several goroutines, at most once per element;
// once one call reports true, no chunk starts and running ones stop at their
// next batch. Any of an empty query is false. Any panics if pred is nil.
func (q Query[T]) Any(pred func(T) bool) (bool, error) {
	mustFunc("Any", "pred", pred == nil)
	return q.any(pred, true)
}

// Every reports whether pred reports true for every element of q: LINQ's
// All (in Go, All names an iterator; see Query.All). It
// stops as soon as some call reports false, as Any does. Every of an empty
// query is true. Every panics if pred is nil.
func (q Query[T]) Every(pred func(T) bool) (bool, error) {
	mustFunc("Every", "pred", pred == nil)
	found, err := q.any(pred, false)
	return !found && err == nil, err
}

// Contains reports whether v is an element of q, by ==. It stops as soon as
// v is found, as Any does.
func Contains[T comparable](q Query[T], v T) (bool, error) {
	return q.any(func(e T) bool { return e == v }, true)
}

// FindAny returns some element of q for which pred reports true, and
// true; or the zero T and false if there is none. Unlike
// q.Where(pred).First, it returns whichever matching element a worker finds
// first, so with several matches the answer may differ from run to run.
// pred is called concurrently from several goroutines, at most once per
// element; once one call reports true, no chunk starts and running ones
// stop at their next batch, as in Any. FindAny panics if pred is nil.
func (q Query[T]) FindAny(pred func(T) bool) (v T, ok bool, err error) {
	mustFunc("FindAny", "pred", pred == nil)
	defer catch(&err)
	x := newExec(q.set)
	f := q.flow(x)
	var (
		once    sync.Once
		match   T
		matched bool
	)
	chunks(x, 0, f.n,
		func(w *worker) func(lo, hi int) bool {
			return f.open(w, func(b []T) bool {
				for _, v := range b {
					if pred(v) {
						once.Do(func() { match, matched = v, true })
						w.l.stopAll() // running chunks stop at their next batch
						return false
					}
				}
				return true
			})
		},
		func(run func(lo, hi int) bool, lo, hi int) bool { return run(lo, hi) }, nil)
	return match, matched, nil
}

// any reports whether pred(v) == want for some element v of q.
func (q Query[T]) any(pred func(T) bool, want bool) (_ bool, err error) {
	defer catch(&err)
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
	return found.Load(), nil
}
