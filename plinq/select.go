package plinq

// Select returns the query of f(x) for every element x of q, in query order.
// f is called concurrently from several goroutines, at most once per
// element, for the elements the terminal operation evaluates. A Select of an
// indexed query (a slice, a Range, a Zip, and Select, Take or Skip of those)
// stays indexed, so ToSlice writes its results straight into place, Count
// does not call f and First calls it once. Select panics if f is nil.
func Select[T, U any](q Query[T], f func(T) U) Query[U] {
	mustFunc("Select", "f", f == nil)
	return derive(q, func(x *exec) flow[U] {
		in := q.flow(x)
		return flow[U]{n: in.n, indexed: in.indexed, open: func(w *worker, sink func([]U) bool) func(lo, hi int) bool {
			buf := make([]U, batchLen)
			return in.open(w, func(b []T) bool {
				out := buf[:len(b)]
				for i, v := range b {
					out[i] = f(v)
				}
				return sink(out)
			})
		}}
	})
}

// SelectErr is Select with a function that can fail: the query of f(x)
// for every element x of q, in query order, as long as f returns a nil
// error. f is called as Select's f is: concurrently from several
// goroutines, at most once per element, for the elements the terminal
// operation evaluates, and only those can fail: Count of an indexed query
// (see Select) calls f for none and returns no error of f's, and First,
// Take and ElementAt report only failures among the elements they evaluate
// (of an indexed query, only the ones they return).
// Once a call fails, no chunk after its element starts and the running
// ones stop at their next batch, while those before it run to the end: the
// terminal operation returns the error of the first failing element in
// query order, the error a sequential loop would return, whatever the
// workers and the partitioner. (Any, Every, Contains and FindAny, which
// stop at any answer, return it only if they found no answer first.)
// SelectErr panics if f is nil.
func SelectErr[T, U any](q Query[T], f func(T) (U, error)) Query[U] {
	mustFunc("SelectErr", "f", f == nil)
	return derive(q, func(x *exec) flow[U] {
		in := q.flow(x)
		return flow[U]{n: in.n, indexed: in.indexed, open: func(w *worker, sink func([]U) bool) func(lo, hi int) bool {
			buf := make([]U, batchLen)
			return in.open(w, func(b []T) bool {
				out := buf[:len(b)]
				for i, v := range b {
					u, err := f(v)
					if err != nil {
						// Hand on the elements before the failing one: a later
						// stage may fail on one of them first, or an early exit
						// may need no more.
						if i > 0 && !sink(out[:i]) {
							return false
						}
						w.fail(err)
						return false
					}
					out[i] = u
				}
				return sink(out)
			})
		}}
	})
}

// SelectIndexed returns the query of f(i, x) for every element x of q, where
// i is x's position in q (0 for q's first element), in query order. f is
// called as Select's f is: concurrently from several goroutines, at most
// once per element the terminal operation evaluates. If q is
// indexed (see Select), the positions cost nothing; otherwise (after Where,
// SelectMany, TakeWhile, ...) they are only known once q's results are
// counted, so q is first collected into a slice. SelectIndexed panics if f
// is nil.
func SelectIndexed[T, U any](q Query[T], f func(i int, x T) U) Query[U] {
	mustFunc("SelectIndexed", "f", f == nil)
	return derive(q, func(x *exec) flow[U] {
		in := indexed(x, q.flow(x))
		return flow[U]{n: in.n, indexed: true, open: func(w *worker, sink func([]U) bool) func(lo, hi int) bool {
			buf := make([]U, batchLen)
			pos := 0
			run := in.open(w, func(b []T) bool {
				out := buf[:len(b)]
				for i, v := range b {
					out[i] = f(pos+i, v)
				}
				pos += len(b)
				return sink(out)
			})
			return func(lo, hi int) bool {
				pos = lo
				return run(lo, hi)
			}
		}}
	})
}

// indexed returns f if it is indexed, else the flow over its elements
// collected in query order.
func indexed[T any](x *exec, f flow[T]) flow[T] {
	if f.indexed {
		return f
	}
	return materialized(x, f)
}
