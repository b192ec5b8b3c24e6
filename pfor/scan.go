package pfor

import "sync/atomic"

// Scan returns the inclusive prefix combination of in: out[i] is in[0],
// ..., in[i] combined with op from identity, computed in parallel. op must
// be associative with identity as its identity; it need not be
// commutative. The grouping of the combinations depends only on len(in)
// (see scanParts), never on the worker count, the partitioner or the timing,
// so the result is bitwise the same in every run, as Reduce's is: a float
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
// on any number of workers. (On two workers no prefix computation does
// better: it needs about 2n/(p+1) op calls on its longest path on p
// workers. A plan that gains from more workers does more calls in all and
// gains nothing on two; the plan must not depend on the worker count, or
// the result would.) Scan takes O(n) time and allocates the result and
// O(1) besides. A panic in op reaches the caller as a *PanicError, as in
// Range, also from the calls made on the caller's goroutine. Scan panics
// if op is nil. Scan of an empty slice is an empty slice.
func Scan[T any](in []T, identity T, op func(T, T) T, opts ...Option) []T {
	checkFunc("Scan", "op", op == nil)
	out := make([]T, len(in))
	scan("Scan", out, in, identity, op, true, opts)
	return out
}

// ScanExclusive is Scan, but out[i] combines the elements before in[i]:
// out[0] is identity, and out[i] is Scan's out[i-1], bit for bit.
// ScanExclusive panics if op is nil.
func ScanExclusive[T any](in []T, identity T, op func(T, T) T, opts ...Option) []T {
	checkFunc("ScanExclusive", "op", op == nil)
	out := make([]T, len(in))
	scan("ScanExclusive", out, in, identity, op, false, opts)
	return out
}

// scanParts reports whether a scan of n elements runs in parallel parts
// (see passes): below scanSequential elements it is the sequential loop.
// The parts' cuts depend on n only, which makes the result deterministic:
// a plan that cut the input among the workers, or gave one worker more
// when its part costs less, would make the grouping depend on the worker
// count or on the timing.
func scanParts(n int) bool { return n >= scanSequential }

// The scan plan's sizes: below scanSequential elements a parallel scan
// costs more than it saves; scanBlocks middle blocks let workers balance,
// and scanMinBlock keeps each worth a task. Variables so that tests can
// shrink them.
var scanSequential, scanBlocks, scanMinBlock = 1 << 15, 64, 1 << 10

// scanner holds a scan's operands: it writes the inclusive (or exclusive)
// scan of in to out.
type scanner[T any] struct {
	out, in   []T
	op        func(T, T) T
	inclusive bool
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
// Scanning the middle blocks from identity in the first loop and combining
// each output with its carry in the second (scan, then add the offset)
// makes as many op calls, and reads and writes the output twice where
// this plan reads the input twice.
func (s *scanner[T]) passes(c config, identity T) {
	n := len(s.in)
	first, last := n/3, n-n/3
	block := max(scanMinBlock, (last-first)/scanBlocks)
	nb := (last - first + block - 1) / block
	bounds := func(b int) (int, int) { return first + b*block, min(first+(b+1)*block, last) }
	sums := make([]T, nb+1) // sums[b]: middle block b's fold, then the carry into it; sums[nb]: the carry into the last part
	execute(nil, 0, nb+1, c, func(_, t0, t1 int) error {
		for t := t0; t < t1; t++ {
			if t == 0 {
				sums[nb] = s.scan(0, first, identity)
				continue
			}
			b0, b1 := bounds(t - 1)
			sums[t-1] = s.fold(b0, b1, identity)
		}
		return nil
	})
	guard(c.call, func() {
		acc := sums[nb]
		for b, sum := range sums[:nb] {
			sums[b] = acc
			acc = s.op(acc, sum)
		}
		sums[nb] = acc
	})
	execute(nil, 0, nb+1, c, func(_, t0, t1 int) error {
		for t := t0; t < t1; t++ {
			if t == 0 {
				s.scan(last, n, sums[nb])
				continue
			}
			b0, b1 := bounds(t - 1)
			s.scan(b0, b1, sums[t-1])
		}
		return nil
	})
}

// scanTwoPass selects the two-pass plan instead of the chain; a variable
// so that the benchmark can compare the two.
var scanTwoPass = false

// scan writes the inclusive (or exclusive) scan of in to out: in parallel
// parts (see scanParts) or in one sequential loop.
func scan[T any](call string, out, in []T, identity T, op func(T, T) T, inclusive bool, opts []Option) {
	n := len(in)
	s := &scanner[T]{out: out, in: in, op: op, inclusive: inclusive}
	if !inclusive && n > 0 {
		out[0] = identity
	}
	c := configure(call, opts)
	if scanTwoPass {
		if !scanParts(n) {
			guard(c.call, func() { s.scan(0, n, identity) })
			return
		}
		c.grain = 1 // tasks are the items: one at a time, the big one first
		s.passes(c, identity)
		return
	}
	ch := &chain[T]{scanner: *s, identity: identity, s: chainBlock(sizeOf[T]())}
	ch.nb = chainBlocks(n, ch.s)
	if ch.nb <= 2 { // the plan is the sequential loop
		guard(c.call, func() { s.scan(0, n, identity) })
		return
	}
	ch.prefix = make([]T, ch.nb)
	ch.done = make([]atomic.Bool, ch.nb)
	c.grain = 1
	execute(nil, 0, c.workers, c, func(_, _, _ int) error { ch.run(); return nil })
}
