package plinq

// Distinct returns the query of q's distinct elements, by ==, each where it
// first appears in q, in query order. q is collected first (for free if q
// is a slice); Distinct takes O(n) time and memory. A NaN, unequal to
// itself, is kept every time it appears.
func Distinct[T comparable](q Query[T]) Query[T] {
	return DistinctBy(q, identity[T])
}

// DistinctBy returns the query of the first element of q, in query order,
// for each distinct key(x), by ==. key is called once per element,
// concurrently from several goroutines. q is collected first; DistinctBy
// takes O(n) time and memory. DistinctBy panics if key is nil.
func DistinctBy[T any, K comparable](q Query[T], key func(T) K) Query[T] {
	mustFunc("DistinctBy", "key", key == nil)
	return derive(q, func(x *exec) flow[T] {
		items := collect(x, q.flow(x), true)
		return ownedFlow(firsts(x, indexKeys(x, items, key), items))
	})
}

// Union returns the query of the distinct elements of a, then those of b not
// in a, by ==, each where it first appears: Distinct of a followed by b.
// Both are collected; Union takes O(len(a)+len(b)) time and memory. The
// result has both queries' settings, merged as Concat merges them.
func Union[T comparable](a, b Query[T]) Query[T] {
	return derive2("Union", a, b, func(x *exec) flow[T] {
		sa, sb := collect(x, a.flow(x), true), collect(x, b.flow(x), true)
		both := append(append(make([]T, 0, len(sa)+len(sb)), sa...), sb...)
		return ownedFlow(firsts(x, indexKeys(x, both, identity[T]), both))
	})
}

// Intersect returns the query of the distinct elements of a that are also
// in b, by ==, in their order of first appearance in a. Both are
// collected; Intersect takes O(len(a)+len(b)) time and memory. The result
// has both queries' settings, merged as Concat merges them.
func Intersect[T comparable](a, b Query[T]) Query[T] {
	return derive2("Intersect", a, b, func(x *exec) flow[T] { return members(x, a, b, true) })
}

// Except returns the query of the distinct elements of a that are not in b,
// by ==, in their order of first appearance in a. Both are collected;
// Except takes O(len(a)+len(b)) time and memory. The result has both
// queries' settings, merged as Concat merges them.
func Except[T comparable](a, b Query[T]) Query[T] {
	return derive2("Except", a, b, func(x *exec) flow[T] { return members(x, a, b, false) })
}

// members is the flow of the distinct elements of a whose membership in b
// is in: b's key index serves as a set, read concurrently by a filter fused
// over a's distinct elements.
func members[T comparable](x *exec, a, b Query[T], in bool) flow[T] {
	sb := collect(x, b.flow(x), true)
	set := indexKeys(x, sb, identity[T]).table
	sa := collect(x, a.flow(x), true)
	distinct := firsts(x, indexKeys(x, sa, identity[T]), sa)
	return whereFlow(sliceFlow(distinct), func(v T) bool {
		_, ok := set.find(v)
		return ok == in
	})
}

func identity[T any](v T) T { return v }
