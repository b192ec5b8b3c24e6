package plinq

import "fmt"

// Concat returns the query of a's elements followed by b's, in query
// order. It runs both in the same parallel loops, fused with the operators
// around it: nothing is collected unless a later operator needs it. If a
// and b are both indexed (see Select), so is the result.
//
// The result has both queries' settings, merged by the rule that Zip,
// Join, Union, Intersect and Except follow too, whatever the order of the
// inputs:
//   - contexts: the run stops when the first of a's and b's contexts is
//     done, and returns that context's error;
//   - Unordered: the result is unordered only if both are;
//   - pfor options (With): those of the query that has any; if both have
//     options, they must be the same list (both queries derived from one
//     that With configured), and Concat panics otherwise, since two option
//     lists have no right merge: set them once, on the result.
func Concat[T any](a, b Query[T]) Query[T] {
	return derive2("Concat", a, b, func(x *exec) flow[T] {
		fa, fb := a.flow(x), b.flow(x)
		na := fa.n
		if na > maxInt-fb.n {
			panic(fmt.Sprintf("plinq: Concat: %d + %d elements overflow int", na, fb.n))
		}
		return flow[T]{n: na + fb.n, indexed: fa.indexed && fb.indexed, open: func(w *worker, sink func([]T) bool) func(lo, hi int) bool {
			runA, runB := fa.open(w, sink), fb.open(w, sink)
			return func(lo, hi int) bool {
				// [lo, hi) is a's indices [lo, na) and then b's from 0.
				if lo < na && !runA(lo, min(hi, na)) {
					return false
				}
				if hi > na {
					return runB(max(lo, na)-na, hi-na)
				}
				return true
			}
		}}
	})
}

const maxInt = int(^uint(0) >> 1)
