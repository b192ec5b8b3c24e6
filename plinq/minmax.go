package plinq

import "cmp"

// Min returns the least element of q, as the built-in min would: if any
// element is a floating-point NaN, the result is NaN. It is computed in
// blocks, as Sum is: O(n) time. Min panics if q is empty.
func Min[T cmp.Ordered](q Query[T]) (T, error) {
	return extreme(q, "Min", func(a, b T) T { return min(a, b) })
}

// Max returns the greatest element of q, as the built-in max would (NaN if
// any element is NaN). Max panics if q is empty.
func Max[T cmp.Ordered](q Query[T]) (T, error) {
	return extreme(q, "Max", func(a, b T) T { return max(a, b) })
}

type found[T any] struct {
	ok bool
	v  T
}

func extreme[T any](q Query[T], call string, pick func(a, b T) T) (_ T, err error) {
	defer catch(&err)
	x := newExec(q.set)
	var r found[T]
	for _, p := range foldBlocks(x, q.flow(x), found[T]{}, func(r found[T], b []T) found[T] {
		i := 0
		if !r.ok {
			r, i = found[T]{true, b[0]}, 1
		}
		for _, v := range b[i:] {
			r.v = pick(r.v, v)
		}
		return r
	}) {
		switch {
		case !p.ok:
		case !r.ok:
			r = p
		default:
			r.v = pick(r.v, p.v)
		}
	}
	if !r.ok {
		panic("plinq: " + call + ": empty query")
	}
	return r.v, nil
}

// MinBy returns the element of q with the least key(x), ordered as
// cmp.Compare orders keys (a NaN key is least); of several with the least
// key, the first in query order, in every run. key is called once per
// element, concurrently from several goroutines. MinBy panics if key is nil
// or q is empty.
func MinBy[T any, K cmp.Ordered](q Query[T], key func(T) K) (T, error) {
	mustFunc("MinBy", "key", key == nil)
	return extremeBy(q, "MinBy", key, -1)
}

// MaxBy returns the element of q with the greatest key(x), ordered as
// cmp.Compare orders keys; of several with the greatest key, the first in
// query order. MaxBy panics if key is nil or q is empty.
func MaxBy[T any, K cmp.Ordered](q Query[T], key func(T) K) (T, error) {
	mustFunc("MaxBy", "key", key == nil)
	return extremeBy(q, "MaxBy", key, +1)
}

type keyed[T any, K any] struct {
	ok bool
	v  T
	k  K
}

// extremeBy returns the first element whose key compares as sign (-1: less,
// +1: greater) to every earlier one's, and not the opposite to any later.
func extremeBy[T any, K cmp.Ordered](q Query[T], call string, key func(T) K, sign int) (_ T, err error) {
	defer catch(&err)
	x := newExec(q.set)
	better := func(r keyed[T, K], k K) bool { return !r.ok || cmp.Compare(k, r.k) == sign }
	var r keyed[T, K]
	for _, p := range foldBlocks(x, q.flow(x), keyed[T, K]{}, func(r keyed[T, K], b []T) keyed[T, K] {
		for _, v := range b {
			if k := key(v); better(r, k) {
				r = keyed[T, K]{true, v, k}
			}
		}
		return r
	}) {
		if p.ok && better(r, p.k) {
			r = p
		}
	}
	if !r.ok {
		panic("plinq: " + call + ": empty query")
	}
	return r.v, nil
}
