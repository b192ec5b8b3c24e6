package pfor

import (
	"context"
	"fmt"
)

// Map returns []U{f(in[0]), f(in[1]), ...}, computing the elements in
// parallel. f is called concurrently from several goroutines, once per
// element; the result is in input order, a new slice of len(in) (empty, not
// nil, for an empty in). Panics behave as in Range. Map panics if f or an
// option is nil.
func Map[T, U any](in []T, f func(T) U, opts ...Option) []U {
	checkFunc("Map", "f", f == nil)
	out := make([]U, len(in))
	execute(nil, 0, len(in), configure("Map", opts), func(_, lo, hi int) error {
		for i, x := range in[lo:hi] {
			out[lo+i] = f(x)
		}
		return nil
	})
	return out
}

// MapIndexed is Map for a function that also needs the index: it returns
// []U{f(0, in[0]), f(1, in[1]), ...}. f is called as Map calls it.
// MapIndexed panics if f or an option is nil.
func MapIndexed[T, U any](in []T, f func(i int, x T) U, opts ...Option) []U {
	checkFunc("MapIndexed", "f", f == nil)
	out := make([]U, len(in))
	execute(nil, 0, len(in), configure("MapIndexed", opts), func(_, lo, hi int) error {
		for i, x := range in[lo:hi] {
			out[lo+i] = f(lo+i, x)
		}
		return nil
	})
	return out
}

// MapErr is Map with a context and errors. On error it returns nil and the
// error, chosen as RangeErr chooses it. MapErr panics if ctx, f or an
// option is nil.
func MapErr[T, U any](ctx context.Context, in []T, f func(T) (U, error), opts ...Option) ([]U, error) {
	checkCtx("MapErr", ctx)
	checkFunc("MapErr", "f", f == nil)
	out := make([]U, len(in))
	err := execute(ctx, 0, len(in), configure("MapErr", opts), func(_, lo, hi int) error {
		for i, x := range in[lo:hi] {
			y, err := f(x)
			if err != nil {
				return err
			}
			out[lo+i] = y
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Reduce folds in into one value in parallel: the input is cut into blocks
// of a fixed size, each block is folded from identity with fold, in order,
// and the blocks' results are combined with combine in index order:
//
//	combine(...combine(combine(fold(fold(identity, in[0]), in[1])..., fold(...)), ...)
//
// combine must be associative, and identity must be an identity of combine;
// combine need not be commutative. fold is called once per element,
// concurrently from several goroutines; combine once per block but the first,
// on the caller's goroutine, after every fold has returned. With one block
// (len(in) at most the block size) Reduce folds in on the caller's goroutine
// and never calls combine; Reduce of an empty in returns identity. Panics
// behave as in Range, on either path. Every block starts from a copy of
// identity, so a map, slice or pointer identity would be shared by all
// blocks: give a nil one and let fold allocate a block's own (see the
// example).
//
// Determinism: the block size is max(1024, len(in)/4096), or the grain if
// WithGrain is given, and depends on nothing else: not on the worker
// count, the partitioner or the timing. So for the same input and the same
// grain, Reduce makes the same calls of fold and combine on the same values
// and returns the same bits at any worker count and with any partitioner,
// floating-point sums included (given fold and combine are themselves
// deterministic). A different grain, or the same values reduced in another
// order or another number of elements, may give other bits where combine
// is associative only up to rounding.
//
// Reduce panics if fold, combine or an option is nil.
func Reduce[T, A any](in []T, identity A, fold func(A, T) A, combine func(A, A) A, opts ...Option) A {
	checkFunc("Reduce", "fold", fold == nil)
	checkFunc("Reduce", "combine", combine == nil)
	return reduce(configure("Reduce", opts), len(in), identity, func(acc A, lo, hi int) A {
		for _, x := range in[lo:hi] {
			acc = fold(acc, x)
		}
		return acc
	}, combine)
}

// ReduceRange is Reduce over the indices [lo, hi) instead of a slice: it
// folds lo, lo+1, ..., hi-1 with fold, in blocks, and combines the blocks'
// results in index order, as Reduce does for in[0], in[1], ... Blocks start
// at lo, so ReduceRange(0, len(in), identity, func(a A, i int) A { return
// f(a, in[i]) }, combine) makes the same calls as Reduce(in, identity, f,
// combine), with the same determinism. ReduceRange panics if hi < lo, if
// [lo, hi) holds more than MaxInt indices (as [MinInt, MaxInt) does: Reduce
// counts its items in an int), or if fold, combine or an option is nil.
func ReduceRange[A any](lo, hi int, identity A, fold func(acc A, i int) A, combine func(A, A) A, opts ...Option) A {
	checkRange("ReduceRange", lo, hi)
	if hi-lo < 0 { // the count wrapped: hi >= lo
		panic(fmt.Sprintf("pfor: ReduceRange(%d, %d): more than MaxInt indices", lo, hi))
	}
	checkFunc("ReduceRange", "fold", fold == nil)
	checkFunc("ReduceRange", "combine", combine == nil)
	return reduce(configure("ReduceRange", opts), hi-lo, identity, func(acc A, b0, b1 int) A {
		for i := lo + b0; i < lo+b1; i++ {
			acc = fold(acc, i)
		}
		return acc
	}, combine)
}

// reduce folds [0, n) in blocks with foldBlock, which folds [lo, hi) into
// acc, and combines the blocks' results in order.
func reduce[A any](c config, n int, identity A, foldBlock func(acc A, lo, hi int) A, combine func(A, A) A) A {
	block := c.grain
	if block == 0 {
		block = max(1024, n/4096)
	}
	blocks := 0
	if n > 0 {
		blocks = (n-1)/block + 1 // n+block-1 can overflow
	}
	if blocks <= 1 {
		acc := identity
		guard(c.call, func() { acc = foldBlock(identity, 0, n) })
		return acc
	}
	partial := make([]A, blocks)
	c.grain = 0 // blocks are the items now: let the partitioner choose how many to take
	execute(nil, 0, blocks, c, func(_, lo, hi int) error {
		for b := lo; b < hi; b++ {
			partial[b] = foldBlock(identity, b*block, b*block+min(block, n-b*block)) // (b+1)*block can overflow
		}
		return nil
	})
	acc := partial[0]
	guard(c.call, func() {
		for _, p := range partial[1:] {
			acc = combine(acc, p)
		}
	})
	return acc
}
