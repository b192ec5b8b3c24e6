package plinq

// Zip returns the query of f(a[i], b[i]) for i from 0 up to the length of
// the shorter of a and b, in order. f is called concurrently from several
// goroutines, at most once per pair, for the pairs the terminal operation
// evaluates. If a and b are both indexed (see Select), Zip
// is indexed too and reads both in step, chunk by chunk; an input that is
// not indexed is first collected into a slice. The result has both
// queries' settings, merged as Concat merges them. Zip panics if f is nil.
func Zip[A, B, C any](a Query[A], b Query[B], f func(A, B) C) Query[C] {
	mustFunc("Zip", "f", f == nil)
	return derive2("Zip", a, b, func(x *exec) flow[C] {
		fa, fb := indexed(x, a.flow(x)), indexed(x, b.flow(x))
		return flow[C]{n: min(fa.n, fb.n), indexed: true, open: func(w *worker, sink func([]C) bool) func(lo, hi int) bool {
			bufA, bufB, out := make([]A, batchLen), make([]B, batchLen), make([]C, batchLen)
			var na, nb int
			runA := fa.open(w, func(s []A) bool { na += copy(bufA[na:], s); return true })
			runB := fb.open(w, func(s []B) bool { nb += copy(bufB[nb:], s); return true })
			return func(lo, hi int) bool {
				for lo < hi {
					e := lo + min(batchLen, hi-lo)
					na, nb = 0, 0
					if !runA(lo, e) || !runB(lo, e) {
						return false
					}
					o := out[:e-lo]
					for i := range o {
						o[i] = f(bufA[i], bufB[i])
					}
					if !sink(o) {
						return false
					}
					lo = e
				}
				return true
			}
		}}
	})
}
