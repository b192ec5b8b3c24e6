package plinq

// SelectMany returns the query of the elements of f(x) for every element x
// of q, in query order: f(q[0])..., then f(q[1])..., and so on. f is called
// concurrently from several goroutines, at most once per element of q, for
// the elements the terminal operation evaluates. The slices f
// returns are only read, and plinq is done with each one before f is next
// called on the same goroutine. SelectMany panics if f is nil.
func SelectMany[T, U any](q Query[T], f func(T) []U) Query[U] {
	mustFunc("SelectMany", "f", f == nil)
	return derive(q, func(x *exec) flow[U] { return expandFlow(q.flow(x), f) })
}

// expandFlow is in with each element replaced by the elements f returns:
// not indexed.
func expandFlow[T, U any](in flow[T], f func(T) []U) flow[U] {
	return flow[U]{n: in.n, open: func(w *worker, sink func([]U) bool) func(lo, hi int) bool {
		out := batcher[U]{w: w, sink: sink, buf: make([]U, 0, batchLen)}
		run := in.open(w, func(b []T) bool {
			for _, v := range b {
				for _, u := range f(v) {
					if !out.add(u) {
						return false
					}
				}
			}
			return true
		})
		return func(lo, hi int) bool {
			out.buf = out.buf[:0] // what a stopped chunk left
			return run(lo, hi) && out.flush()
		}
	}}
}
