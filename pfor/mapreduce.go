package pfor

import "context"

// Map returns []U{f(in[0]), f(in[1]), ...}, computing the elements in
// parallel. f is called concurrently from several goroutines, once per
// element; the result is in input order. Panics behave as in Range. Map
// panics if f is nil.
func Map[T, U any](in []T, f func(T) U, opts ...Option) []U {
	checkFunc("Map", "f", f == nil)
	out := make([]U, len(in))
	execute(nil, 0, len(in), configure(opts), func(_, lo, hi int) error {
		for i, x := range in[lo:hi] {
			out[lo+i] = f(x)
		}
		return nil
	})
	return out
}

// MapErr is Map with a context and errors. On error it returns nil and the
// error, chosen as RangeErr chooses it.
func MapErr[T, U any](ctx context.Context, in []T, f func(T) (U, error), opts ...Option) ([]U, error) {
	checkFunc("MapErr", "f", f == nil)
	out := make([]U, len(in))
	err := execute(ctx, 0, len(in), configure(opts), func(_, lo, hi int) error {
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
// combine need not be commutative. The block size depends only on len(in)
// and WithGrain, never on the worker count or the partitioner, so the result
// is bitwise identical across runs, worker counts and partitioners for the
// same input and grain: float sums included. fold and combine are called
// concurrently from several goroutines. The default block size is
// max(1024, len(in)/4096); WithGrain sets it.
//
// Reduce panics if fold or combine is nil.
func Reduce[T, A any](in []T, identity A, fold func(A, T) A, combine func(A, A) A, opts ...Option) A {
	checkFunc("Reduce", "fold", fold == nil)
	checkFunc("Reduce", "combine", combine == nil)
	c := configure(opts)
	block := c.grain
	if block == 0 {
		block = max(1024, len(in)/4096)
	}
	blocks := (len(in) + block - 1) / block
	if blocks <= 1 {
		acc := identity
		for _, x := range in {
			acc = fold(acc, x)
		}
		return acc
	}
	partial := make([]A, blocks)
	c.grain = 0 // blocks are the items now: let the partitioner choose how many to take
	execute(nil, 0, blocks, c, func(_, lo, hi int) error {
		for b := lo; b < hi; b++ {
			acc := identity
			for _, x := range in[b*block : min((b+1)*block, len(in))] {
				acc = fold(acc, x)
			}
			partial[b] = acc
		}
		return nil
	})
	acc := partial[0]
	for _, p := range partial[1:] {
		acc = combine(acc, p)
	}
	return acc
}
