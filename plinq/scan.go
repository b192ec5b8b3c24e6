package plinq

import (
	"context"

	"github.com/stealkit/stealkit/pfor"
)

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
// pfor.Scan). The run's contexts are looked at before each block of the
// scan: once one is done, or op has panicked, no block starts. Scan takes
// O(n) time and memory. Scan panics if op is nil.
func Scan[T any](q Query[T], identity T, op func(T, T) T) Query[T] {
	mustFunc("Scan", "op", op == nil)
	return scanQuery(q, identity, op, pfor.ScanErr[T])
}

// ScanExclusive is Scan, but element i combines the elements before q[i]:
// element 0 is identity, and element i is Scan's element i-1, bit for bit.
// ScanExclusive panics if op is nil.
func ScanExclusive[T any](q Query[T], identity T, op func(T, T) T) Query[T] {
	mustFunc("ScanExclusive", "op", op == nil)
	return scanQuery(q, identity, op, pfor.ScanExclusiveErr[T])
}

func scanQuery[T any](q Query[T], identity T, op func(T, T) T, scan func(context.Context, []T, T, func(T, T) T, ...pfor.Option) ([]T, error)) Query[T] {
	return derive(q, func(x *exec) flow[T] {
		in := collect(x, q.flow(x), true)
		ctx, release := anyDone(x)
		defer release()
		var out []T
		var err error
		guard(func() { out, err = scan(ctx, in, identity, op, x.opts...) })
		x.check() // raises the error of the first of the query's contexts that is done
		if err != nil {
			panic(stop{err})
		}
		return ownedFlow(out)
	})
}

// anyDone returns a context that is done once one of the run's contexts
// is, for a pfor call that takes one context, and a function that
// releases it. With one context or none it is x.ctx itself. With more it
// is canceled from context.AfterFunc callbacks, whose goroutine needs a
// free P: while the scan's workers hold every P, it can wait up to a
// scheduling time slice, and the scan runs on for that long. (No context
// can be made done synchronously by several parents; polling every
// context between blocks, as plinq's own loops do, would need pfor to
// take a list of them.)
func anyDone(x *exec) (context.Context, func()) {
	if len(x.ctxs) <= 1 {
		return x.ctx, func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	stops := make([]func() bool, len(x.ctxs))
	for i, c := range x.ctxs {
		stops[i] = context.AfterFunc(c, cancel)
	}
	return ctx, func() {
		for _, s := range stops {
			s()
		}
		cancel()
	}
}
