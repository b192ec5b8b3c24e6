package pfor

import (
	"context"
	"sync/atomic"

	"github.com/stealkit/stealkit/internal/ctxerr"
)

// Scan returns the inclusive prefix combination of in: out[i] is in[0],
// ..., in[i] combined with op from identity, computed in parallel. op must
// be associative with identity as its identity; it need not be
// commutative. The grouping of the combinations depends only on len(in),
// never on the worker count, the partitioner, the grain or the timing, so
// the result is bitwise the same in every run, as Reduce's is: a float
// prefix sum too. For short inputs it is the sequential loop
//
//	acc := identity
//	for i, x := range in {
//		acc = op(acc, x)
//		out[i] = acc
//	}
//
// op is called concurrently from several goroutines, about 4n/3 times for
// n elements, about 2n/3 of them in a chain where each call waits for the
// one before: Scan runs at most 1.5 times as fast as the sequential loop,
// on any number of workers. Scan takes O(n) time and allocates the result
// and O(1) besides. A panic in op reaches the caller as a *PanicError, as in
// Range, also from the calls made on the caller's goroutine; once op has
// panicked no block of the scan starts, and Scan re-raises the panic when
// the workers have finished the blocks they were on. Scan panics if op or
// an option is nil. Scan of an empty or nil slice is a non-nil empty slice.
//
// Of the options, Scan honours WithWorkers, WithPartitioner and WithLabel
// in its parallel loops over its blocks, and WithStats describes the last
// of these loops it ran (an input short enough to be scanned sequentially
// leaves *s as it was). It ignores WithGrain: its blocks depend on len(in)
// only.
func Scan[T any](in []T, identity T, op func(T, T) T, opts ...Option) []T {
	checkFunc("Scan", "op", op == nil)
	out, _ := scan(nil, "Scan", in, identity, op, true, opts)
	return out
}

// ScanExclusive is Scan, but out[i] combines the elements before in[i]:
// out[0] is identity, and out[i] is Scan's out[i-1], bit for bit.
// ScanExclusive panics if op or an option is nil.
func ScanExclusive[T any](in []T, identity T, op func(T, T) T, opts ...Option) []T {
	checkFunc("ScanExclusive", "op", op == nil)
	out, _ := scan(nil, "ScanExclusive", in, identity, op, false, opts)
	return out
}

// ScanErr is Scan with a context. Workers look at ctx before each block
// of the scan: once it is done, no block starts, each worker finishes the
// block it is on, and ScanErr returns nil and ctx's error. Otherwise it
// returns Scan's result and nil, even if ctx is done once every block has
// started. op returns no error: the only error is ctx's. Panics behave as
// in Scan: no block starts after op panicked. ScanErr panics if ctx, op or
// an option is nil.
func ScanErr[T any](ctx context.Context, in []T, identity T, op func(T, T) T, opts ...Option) ([]T, error) {
	checkCtx("ScanErr", ctx)
	checkFunc("ScanErr", "op", op == nil)
	return scan(ctx, "ScanErr", in, identity, op, true, opts)
}

// ScanExclusiveErr is ScanExclusive with a context, as ScanErr is to
// Scan. ScanExclusiveErr panics if ctx, op or an option is nil.
func ScanExclusiveErr[T any](ctx context.Context, in []T, identity T, op func(T, T) T, opts ...Option) ([]T, error) {
	checkCtx("ScanExclusiveErr", ctx)
	checkFunc("ScanExclusiveErr", "op", op == nil)
	return scan(ctx, "ScanExclusiveErr", in, identity, op, false, opts)
}

// scanParts reports whether a scan of n elements runs in parallel parts
// (see passes): below scanSequential elements it is the sequential loop.
// The parts' cuts depend on n only, which makes the result deterministic:
// a plan that cut the input among the workers, or gave one worker more
// when its part costs less, would make the grouping depend on the worker
// count or on the timing.
//
// The plan's longest chain, about 2n/3 op calls, bounds the speedup at 1.5
// on any number of workers. On two workers no prefix computation does
// better: it needs about 2n/(p+1) op calls on its longest path on p
// workers. A plan that gains from more workers does more calls in all and
// gains nothing on two.
func scanParts(n int) bool { return n >= scanSequential }

// The scan plan's sizes: below scanSequential elements a parallel scan
// costs more than it saves; scanBlocks middle blocks let workers balance,
// and scanMinBlock keeps each worth a task. Variables so that tests can
// shrink them.
var scanSequential, scanBlocks, scanMinBlock = 1 << 15, 64, 1 << 10

// scanner holds a scan's operands: it writes the inclusive (or exclusive)
// scan of in to out.
//
// stop, the one word workers share, only goes from false to true: a
// task that panicked (or called runtime.Goexit) stores it on its way out,
// and so does a worker that saw cancel closed. Every worker of the loops
// calls halted before each block, and starts none once it reports true;
// the Store is the point from which no block starts. The caller reads stop
// after the loop, which every worker has left.
type scanner[T any] struct {
	out, in   []T
	op        func(T, T) T
	inclusive bool
	cancel    <-chan struct{} // the context's Done, or nil
	stop      atomic.Bool
}

// halted reports whether the scan is to stop: it stopped already, or the
// context is done, which stops it.
func (s *scanner[T]) halted() bool {
	if s.stop.Load() {
		return true
	}
	select {
	case <-s.cancel:
		s.stop.Store(true) // every worker stops at its next block
		return true
	default:
		return false
	}
}

// each calls task(t) for t in [t0, t1), in order, until the scan halts.
// A task that panics or calls runtime.Goexit stops the scan on its way
// out, so that the others stop at their next block and the panic reaches
// the caller without waiting for a whole part to be scanned.
func (s *scanner[T]) each(t0, t1 int, task func(t int)) error {
	done := false
	defer func() {
		if !done {
			s.stop.Store(true) // task panicked or called runtime.Goexit
		}
	}()
	for t := t0; t < t1 && !s.halted(); t++ {
		task(t)
	}
	done = true
	return nil
}

// scan writes the scan of in[lo:hi] from acc to out and returns the
// inclusive value at hi-1 (acc if lo == hi). The exclusive scan is the
// inclusive one shifted by one place, so that the two agree bit for bit at
// every cut: out[i+1] gets the inclusive value at i. An exclusive scan up
// to the end stops before in[n-1]: its inclusive value has no place in out,
// and no carry needs it.
func (s *scanner[T]) scan(lo, hi int, acc T) T {
	if lo == hi {
		return acc
	}
	dst := s.out[lo:hi]
	if !s.inclusive {
		dst = s.out[lo+1 : min(hi+1, len(s.out))]
	}
	for i, x := range s.in[lo : lo+len(dst)] {
		acc = s.op(acc, x)
		dst[i] = acc
	}
	return acc
}

// scanBlocks is scan in pieces of block elements, looking at halted
// before each: the same calls, the same result, and a long part stops soon
// after the scan halts (its result is then of no use).
func (s *scanner[T]) scanBlocks(lo, hi, block int, acc T) T {
	for ; lo < hi && !s.halted(); lo += block {
		acc = s.scan(lo, min(lo+block, hi), acc)
	}
	return acc
}

// fold returns acc combined with in[lo], ..., in[hi-1], in order.
func (s *scanner[T]) fold(lo, hi int, acc T) T {
	op := s.op
	for _, x := range s.in[lo:hi] {
		acc = op(acc, x)
	}
	return acc
}

// passes writes the scan of in to out in two parallel loops.
//
// The input is cut in three: a first part [0, first) that one worker
// scans from identity while others fold the middle part [first, last) block
// by block from identity; then, on the caller, the carries into the middle
// blocks and into the last part; then the middle blocks and the last part
// [last, n) scanned from their carries, again in parallel. Each middle
// element is visited twice (folded, then scanned) and every other once: a
// middle third balances the two loops on two workers, and its blocks let
// more workers share it. Task 0 is the first (then the last) part and
// tasks 1+b the middle blocks: the big task comes first, so that it starts
// first.
//
// The first and the last part are scanned in blocks too, one after the
// other by one worker, only so that it can look at halted between them.
// passes reports whether the scan is complete: false if it was canceled.
//
// Rejected: scanning the middle blocks from identity in the first loop and
// combining each output with its carry in the second (scan, then add the
// offset), which makes as many op calls, and reads and writes the output
// twice where this plan reads the input twice. Rejected too: a single pass
// (a chained scan) that reads the input once, blocks claimed in index
// order, each handing its inclusive prefix to the next, direct blocks of
// 2s scanned from their carry alternating with blocks of s folded ahead
// and scanned from the cache. It makes the same 4n/3 calls with the same
// longest path, so it gains only memory traffic, and its blocks hand over
// in lock step: it runs only while every worker holding a block is on a
// core, and a worker waits while the thread of the one before is off its
// core, where this plan's caller takes over the work of late helpers.
func (s *scanner[T]) passes(ctx context.Context, c config, identity T) bool {
	n := len(s.in)
	first, last := n/3, n-n/3
	block := max(scanMinBlock, (last-first)/scanBlocks)
	nb := (last - first + block - 1) / block
	bounds := func(b int) (int, int) { return first + b*block, min(first+(b+1)*block, last) }
	sums := make([]T, nb+1) // sums[b]: middle block b's fold, then the carry into it; sums[nb]: the carry into the last part
	err := execute(ctx, 0, nb+1, c, func(_, t0, t1 int) error {
		return s.each(t0, t1, func(t int) {
			if t == 0 {
				sums[nb] = s.scanBlocks(0, first, block, identity)
				return
			}
			b0, b1 := bounds(t - 1)
			sums[t-1] = s.fold(b0, b1, identity)
		})
	})
	if err != nil || s.stop.Load() {
		return false
	}
	guard(c.call, func() {
		acc := sums[nb]
		for b, sum := range sums[:nb] {
			sums[b] = acc
			acc = s.op(acc, sum)
		}
		sums[nb] = acc
	})
	err = execute(ctx, 0, nb+1, c, func(_, t0, t1 int) error {
		return s.each(t0, t1, func(t int) {
			if t == 0 {
				s.scanBlocks(last, n, block, sums[nb])
				return
			}
			b0, b1 := bounds(t - 1)
			s.scan(b0, b1, sums[t-1])
		})
	})
	return err == nil && !s.stop.Load()
}

// scan returns the inclusive (or exclusive) scan of in, made in parallel
// parts (see scanParts) or in one sequential loop; or nil and ctx's error
// if ctx is done before it is complete (ctx may be nil).
func scan[T any](ctx context.Context, call string, in []T, identity T, op func(T, T) T, inclusive bool, opts []Option) ([]T, error) {
	c := configure(call, opts)
	if ctx != nil {
		if err := ctxerr.Of(ctx); err != nil {
			return nil, err
		}
	}
	n := len(in)
	s := &scanner[T]{out: make([]T, n), in: in, op: op, inclusive: inclusive}
	if !inclusive && n > 0 {
		s.out[0] = identity
	}
	if !scanParts(n) {
		guard(c.call, func() { s.scan(0, n, identity) })
		return s.out, nil
	}
	if ctx != nil {
		s.cancel = ctx.Done()
	}
	c.grain = 1 // tasks are the items: one at a time, the big one first
	if !s.passes(ctx, c, identity) {
		return nil, ctxerr.Of(ctx)
	}
	return s.out, nil
}
