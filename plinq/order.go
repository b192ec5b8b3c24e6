package plinq

import "cmp"

// sortSpec is a stable sort of input by keys: keys[0] first, ties broken by
// keys[1], and so on; elements equal under every key keep their order in
// input.
type sortSpec[T any] struct {
	input Query[T]
	keys  []sortKey[T]
}

// A sortKey is one ordering of a sort, with its direction applied.
type sortKey[T any] struct {
	cmp   func(a, b T) int
	radix func(T) uint64 // nil, or an order-preserving image of the key: the sort may use radix passes
}

// OrderBy returns the query of q's elements sorted by cmp, which returns a
// negative number, zero or a positive number as a sorts before, with or
// after b, as for slices.SortFunc; it must be a strict weak order. The sort
// is stable: elements that cmp finds equal keep their order in q. q is
// collected first; the sort takes O(n log n) calls of cmp, concurrently
// from several goroutines, and O(n) memory. A ThenBy may follow. OrderBy
// panics if cmp is nil.
func (q Query[T]) OrderBy(cmp func(a, b T) int) Query[T] {
	mustFunc("OrderBy", "cmp", cmp == nil)
	return orderBy(q, sortKey[T]{cmp: cmp})
}

// OrderByDescending is OrderBy in reverse: cmp's greatest element first.
// It is stable too: equal elements keep their order in q.
func (q Query[T]) OrderByDescending(cmp func(a, b T) int) Query[T] {
	mustFunc("OrderByDescending", "cmp", cmp == nil)
	return orderBy(q, sortKey[T]{cmp: reverse(cmp)})
}

// ThenBy returns q, which must come straight from OrderBy, ThenBy or their
// variants, with elements that compare equal so far sorted by cmp, stably.
// ThenBy panics if cmp is nil or q was not just sorted.
func (q Query[T]) ThenBy(cmp func(a, b T) int) Query[T] {
	mustFunc("ThenBy", "cmp", cmp == nil)
	return thenBy(q, "ThenBy", sortKey[T]{cmp: cmp})
}

// ThenByDescending is ThenBy in reverse order.
func (q Query[T]) ThenByDescending(cmp func(a, b T) int) Query[T] {
	mustFunc("ThenByDescending", "cmp", cmp == nil)
	return thenBy(q, "ThenByDescending", sortKey[T]{cmp: reverse(cmp)})
}

// OrderByKey returns the query of q's elements sorted by key(x), ascending
// as cmp.Compare orders keys (for floats, NaN first and -0 equal to +0),
// stably. When every key of the sort (with its ThenByKey keys) is an
// integer or a float, key is called once per element, concurrently, and
// the sort takes O(n) time per byte of key that varies (a radix sort).
// Otherwise it sorts as OrderBy does, comparing keys, and key is called
// concurrently, O(log n) times per element: it must be cheap and always
// return the same key for an element. OrderByKey panics if key is nil.
func OrderByKey[T any, K cmp.Ordered](q Query[T], key func(T) K) Query[T] {
	mustFunc("OrderByKey", "key", key == nil)
	return orderBy(q, keyOrder(key, false))
}

// OrderByKeyDescending is OrderByKey with the greatest key first, stably.
func OrderByKeyDescending[T any, K cmp.Ordered](q Query[T], key func(T) K) Query[T] {
	mustFunc("OrderByKeyDescending", "key", key == nil)
	return orderBy(q, keyOrder(key, true))
}

// ThenByKey is ThenBy comparing key(x) as OrderByKey does.
func ThenByKey[T any, K cmp.Ordered](q Query[T], key func(T) K) Query[T] {
	mustFunc("ThenByKey", "key", key == nil)
	return thenBy(q, "ThenByKey", keyOrder(key, false))
}

// ThenByKeyDescending is ThenByKey in reverse order.
func ThenByKeyDescending[T any, K cmp.Ordered](q Query[T], key func(T) K) Query[T] {
	mustFunc("ThenByKeyDescending", "key", key == nil)
	return thenBy(q, "ThenByKeyDescending", keyOrder(key, true))
}

func reverse[T any](c func(a, b T) int) func(a, b T) int {
	return func(a, b T) int { return c(b, a) }
}

func keyOrder[T any, K cmp.Ordered](key func(T) K, desc bool) sortKey[T] {
	sk := sortKey[T]{cmp: func(a, b T) int { return cmp.Compare(key(a), key(b)) }}
	if bits := radixBits[K](); bits != nil {
		sk.radix = func(v T) uint64 { return bits(key(v)) }
	}
	if desc {
		sk.cmp = reverse(sk.cmp)
		if r := sk.radix; r != nil {
			sk.radix = func(v T) uint64 { return ^r(v) }
		}
	}
	return sk
}

func orderBy[T any](q Query[T], k sortKey[T]) Query[T] {
	return sorted(&sortSpec[T]{input: q, keys: []sortKey[T]{k}})
}

func thenBy[T any](q Query[T], call string, k sortKey[T]) Query[T] {
	if q.sort == nil {
		panic("plinq: " + call + ": the query is not sorted (call OrderBy or OrderByKey first)")
	}
	keys := append(q.sort.keys[:len(q.sort.keys):len(q.sort.keys)], k)
	r := sorted(&sortSpec[T]{input: q.sort.input, keys: keys})
	r.set = q.set
	return r
}

// sorted is the query that runs the sort s.
func sorted[T any](s *sortSpec[T]) Query[T] {
	q := derive(s.input, func(x *exec) flow[T] {
		return ownedFlow(sortStable(x, collect(x, s.input.flow(x), true), s.keys))
	})
	q.sort = s
	return q
}

// sortStable returns the elements of src, which it does not change, sorted
// stably by keys.
func sortStable[T any](x *exec, src []T, keys []sortKey[T]) []T {
	radix := make([]func(T) uint64, len(keys))
	for i, k := range keys {
		if radix[i] = k.radix; k.radix == nil {
			return mergeSort(x, src, compareAll(keys))
		}
	}
	return radixSort(x, src, radix)
}

// compareAll compares by keys[0], then keys[1], ...
func compareAll[T any](keys []sortKey[T]) func(a, b T) int {
	if len(keys) == 1 {
		return keys[0].cmp
	}
	return func(a, b T) int {
		for _, k := range keys {
			if c := k.cmp(a, b); c != 0 {
				return c
			}
		}
		return 0
	}
}
