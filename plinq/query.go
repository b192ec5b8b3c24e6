package plinq

import (
	"context"
	"fmt"
	"slices"

	"github.com/stealkit/stealkit/pfor"
)

// A Query is a parallel query over a sequence of T: a source and the
// operators applied to it, run by a terminal operation (ToSlice, Sum,
// First, Values, ...), which returns the run's error as its last result
// (see Errors in the package doc). A Query is an immutable value: operators
// return new queries and never change their input, so a query may be run
// any number of times, also from several goroutines at once (each run
// evaluates it afresh), and branched into several queries. The zero Query is an empty query with
// default settings.
//
// Operators that keep the element type and need nothing of it are methods
// (q.Where, q.Take, q.OrderBy, q.Count); operators that change the element
// type or need a constraint on it (comparable, cmp.Ordered, Number) are
// package functions (Select, Distinct, Sum, Min, GroupBy), since Go methods
// cannot have type parameters of their own.
type Query[T any] struct {
	plan func(x *exec) flow[T] // nil: empty
	set  *settings             // nil: defaults
	sort *sortSpec[T]          // non-nil if the last operator was OrderBy or ThenBy
}

// settings are a query's options. Operators hand them on to the queries they
// return; binary operators merge their inputs' (see mergeSettings).
type settings struct {
	opts      []pfor.Option
	ctxs      []context.Context // the run stops once any is done
	unordered bool
}

// With returns q with pfor options added to those q already has, for every
// parallel loop that q's terminal operations run: pfor.WithWorkers,
// pfor.WithPartitioner, pfor.WithGrain, pfor.WithLabel, ... Options apply in
// order, so a later option overrides an earlier one of the same kind.
// WithGrain and the partitioner apply to loops over the query's elements;
// loops over blocks of elements (reductions, sorts, grouping) take one
// block at a time whatever the grain. pfor.WithStats records only the last
// loop of a run. Options never change a query's results, except FindAny's
// choice among matches. With panics if an option is nil, as pfor's calls
// do.
func (q Query[T]) With(opts ...pfor.Option) Query[T] {
	for i, o := range opts {
		if o == nil {
			panic(fmt.Sprintf("plinq: With: opts[%d] is nil", i))
		}
	}
	s := q.settings()
	s.opts = append(slices.Clip(s.opts), opts...)
	q.set = &s
	return q
}

// WithContext returns q with ctx added to its contexts: once any of them
// is done, a running terminal operation starts no more work, every chunk in
// progress stops at its next batch, and the terminal operation returns the
// done context's error, ctx.Err(), with its cause wrapped in it if it has
// another, as pfor's calls return it (if several are done, that of the one
// added first). A terminal operation whose context is done
// before it starts calls no function of the query. WithContext panics if
// ctx is nil.
func (q Query[T]) WithContext(ctx context.Context) Query[T] {
	if ctx == nil {
		panic("plinq: WithContext(nil)")
	}
	s := q.settings()
	s.ctxs = append(slices.Clip(s.ctxs), ctx)
	q.set = &s
	return q
}

// Unordered returns q with permission to deliver its results in any order:
// ToSlice, Values, All and the queries derived from q may return the same
// elements as the ordered query in another order where that is cheaper.
// Which elements a query yields never depends on it: positional operators
// (Take, Skip, TakeWhile, SkipWhile, SelectIndexed, Zip, Reverse, First,
// Last, ElementAt) and order-dependent ones (OrderBy's stability, DistinctBy
// and GroupBy's first appearances, Aggregate's combining order) always see
// their input in query order.
func (q Query[T]) Unordered() Query[T] {
	s := q.settings()
	s.unordered = true
	q.set = &s
	return q
}

func (q Query[T]) settings() settings {
	if q.set == nil {
		return settings{}
	}
	return *q.set
}

// mergeSettings returns the settings of a query made of a and b by the binary
// operator call, the same for every such operator (Concat, Zip, Union,
// Intersect, Except, Join) and either order of the inputs:
//
//   - contexts: both queries' (a's first), so the run stops when the first
//     of them is done;
//   - Unordered: only if both are;
//   - pfor options: those of the one that has any; if both have options,
//     they must be the same list, as when both come from one query
//     configured with With, and mergeSettings panics otherwise: options cannot be
//     compared, so two different lists are a conflict with no right answer.
func mergeSettings(call string, a, b *settings) *settings {
	if a == b {
		return a
	}
	var none settings
	if a == nil {
		a = &none
	}
	if b == nil {
		b = &none
	}
	m := *a
	m.ctxs = append(slices.Clip(m.ctxs), b.ctxs...) // not deduplicated: == on a Context may panic
	m.unordered = a.unordered && b.unordered
	switch {
	case len(b.opts) == 0:
	case len(a.opts) == 0:
		m.opts = b.opts
	case len(a.opts) != len(b.opts) || &a.opts[0] != &b.opts[0]:
		panic("plinq: " + call + ": both queries have options set by With, and they differ; set them once, on the result")
	}
	return &m
}

// derive2 returns a query with the settings of a and b merged by call, and
// the given plan.
func derive2[A, B, U any](call string, a Query[A], b Query[B], plan func(x *exec) flow[U]) Query[U] {
	return Query[U]{plan: plan, set: mergeSettings(call, a.set, b.set)}
}

// derive returns a query with q's settings and the given plan.
func derive[T, U any](q Query[T], plan func(x *exec) flow[U]) Query[U] {
	return Query[U]{plan: plan, set: q.set}
}

// flow plans q for one run.
func (q Query[T]) flow(x *exec) flow[T] {
	if q.plan == nil {
		return sliceFlow[T](nil)
	}
	return q.plan(x)
}
