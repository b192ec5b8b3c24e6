package plinq

import "fmt"

// Where returns the query of q's elements for which pred reports true, in
// query order. pred is called concurrently from several goroutines, at most
// once per element, for the elements the terminal operation evaluates (Count
// evaluates all of them, First a prefix); it must be safe for that. Where
// runs fused with the operators around it: no slice of its results is made
// unless the terminal operation or a later operator needs one. Where panics
// if pred is nil.
func (q Query[T]) Where(pred func(T) bool) Query[T] {
	mustFunc("Where", "pred", pred == nil)
	return derive(q, func(x *exec) flow[T] { return whereFlow(q.flow(x), pred) })
}

// whereFlow is in with only the elements pred keeps: not indexed any more.
func whereFlow[T any](in flow[T], pred func(T) bool) flow[T] {
	var fl *filtered[T]
	if in.isSlice {
		fl = &filtered[T]{in.slice, pred}
	}
	return flow[T]{n: in.n, filter: fl, open: func(w *worker, sink func([]T) bool) func(lo, hi int) bool {
		buf := make([]T, batchLen)
		return in.open(w, func(b []T) bool {
			out := buf[:len(b)]
			k := 0
			for _, v := range b {
				out[k] = v // written always, kept only if pred: no branch to mispredict on the copy
				if pred(v) {
					k++
				}
			}
			return k == 0 || sink(out[:k])
		})
	}}
}

// mustFunc panics if a function argument is nil.
func mustFunc(call, what string, isNil bool) {
	if isNil {
		panic(fmt.Sprintf("plinq: %s: %s is nil", call, what))
	}
}
