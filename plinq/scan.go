package plinq

import "github.com/stealkit/stealkit/pfor"

// Scan returns the query of the inclusive prefix combinations of q's
// elements, in query order: element i is q[0], ..., q[i] combined with op
// from identity, op(...op(op(identity, q[0]), q[1])..., q[i]) up to
// regrouping. op must be associative with identity as its identity; it need
// not be commutative. q is first collected into a slice (for free if q is
// a slice), and then scanned as pfor.Scan scans: the grouping depends only
// on q's length, so the result is the same bit for bit in every run,
// whatever the workers and the partitioner, as Sum's is. op is called
// concurrently from several goroutines, about 4n/3 times for n elements,
// so the scan runs at most 1.5 times as fast as a sequential loop (see
// pfor.Scan); the run's context is checked before and after the scan. Scan takes O(n)
// time and memory. Scan panics if op is nil.
func Scan[T any](q Query[T], identity T, op func(T, T) T) Query[T] {
	mustFunc("Scan", "op", op == nil)
	return scanQuery(q, identity, op, pfor.Scan[T])
}

// ScanExclusive is Scan, but element i combines the elements before q[i]:
// element 0 is identity, and element i is Scan's element i-1, bit for bit.
// ScanExclusive panics if op is nil.
func ScanExclusive[T any](q Query[T], identity T, op func(T, T) T) Query[T] {
	mustFunc("ScanExclusive", "op", op == nil)
	return scanQuery(q, identity, op, pfor.ScanExclusive[T])
}

func scanQuery[T any](q Query[T], identity T, op func(T, T) T, scan func([]T, T, func(T, T) T, ...pfor.Option) []T) Query[T] {
	return derive(q, func(x *exec) flow[T] {
		in := collect(x, q.flow(x), true)
		var out []T
		guard(func() { out = scan(in, identity, op, x.opts...) })
		x.check()
		return ownedFlow(out)
	})
}
