package plinq

// Join returns the inner equi-join of outer and inner: result(o, i) for
// every element o of outer, in query order, and for each element i of inner
// with innerKey(i) == outerKey(o), in inner's query order. Each run
// collects inner, taking O(len(inner)) memory, but not outer, and Join
// takes O(len(outer) + len(inner) + results) time. outerKey, innerKey and result are called
// concurrently from several goroutines: innerKey once per element of
// inner; outerKey at most once per element of outer and result at most once
// per pair, for those the terminal operation evaluates. The result has both
// queries' settings, merged as Concat merges them. Join panics if a
// function is nil.
func Join[O, I any, K comparable, R any](outer Query[O], inner Query[I], outerKey func(O) K, innerKey func(I) K, result func(O, I) R) Query[R] {
	mustFunc("Join", "outerKey", outerKey == nil)
	mustFunc("Join", "innerKey", innerKey == nil)
	mustFunc("Join", "result", result == nil)
	// A hash join: inner is grouped by key, then outer runs fused with the
	// probe.
	return derive2("Join", outer, inner, func(x *exec) flow[R] {
		items := collect(x, inner.flow(x), true)
		ix := indexKeys(x, items, innerKey)
		all, start := arrange(x, ix, items)
		in := outer.flow(x)
		return flow[R]{n: in.n, open: func(w *worker, sink func([]R) bool) func(lo, hi int) bool {
			out := batcher[R]{w: w, sink: sink, buf: make([]R, 0, batchLen)}
			run := in.open(w, func(b []O) bool {
				for _, o := range b {
					g, ok := ix.table.find(outerKey(o))
					if !ok {
						continue
					}
					for _, i := range all[start[g]:start[g+1]] {
						if !out.add(result(o, i)) {
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
	})
}
