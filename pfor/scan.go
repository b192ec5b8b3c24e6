package pfor

// Scan returns the inclusive prefix combination of in: out[i] is in[0],
// ..., in[i] combined with op from identity, computed in parallel. op must
// be associative with identity as its identity; it need not be
// commutative. The grouping of the combinations depends only on len(in)
// (see scanPlan), never on the worker count, the partitioner or the timing,
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
// n elements, and at least 2n/3 times on one goroutine: Scan runs at most
// 1.5 times as fast as the sequential loop, on any number of workers. (On
// two workers no prefix computation does better: it needs about 2n/(p+1)
// op calls on its longest path on p workers. A plan that gains from more
// workers does more calls in all and gains nothing on two; the plan must
// not depend on the worker count, or the result would.) Scan takes O(n)
// time and allocates the result and O(1) besides. A panic in op reaches
// the caller as a *PanicError, as in Range, also from the calls made on
// the caller's goroutine. Scan panics if op is nil. Scan of an empty slice
// is an empty slice.
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

// scanPlan returns how a scan of n elements is cut: a first part [0, first)
// that one worker scans from identity while others fold the middle part
// [first, last) block by block, then the middle blocks and the last part
// [last, n) scanned from the carries, again in parallel. Each middle
// element is visited twice (folded, then scanned) and every other once: a
// middle third balances the two phases on two workers, and its blocks let
// more workers share it. Below scanSequential elements the plan is one
// part: the sequential loop. The plan depends on n only, which makes the
// result deterministic.
func scanPlan(n int) (first, last, block int) {
	if n < scanSequential {
		return n, n, 1
	}
	first, last = n/3, n-n/3
	return first, last, max(scanMinBlock, (last-first)/scanBlocks)
}

// The scan plan's sizes: below scanSequential elements a parallel scan
// costs more than it saves; scanBlocks middle blocks let workers balance;
// scanMinBlock keeps each worth a task. Variables so that tests can shrink
// them.
var scanSequential, scanBlocks, scanMinBlock = 1 << 15, 64, 1 << 10

// scan writes the inclusive (or exclusive) scan of in to out.
//
// Phase 1, one loop over tasks: task 0 scans [0, first) from identity
// (its last inclusive value is the carry into the middle); task 1+b folds
// middle block b from identity into sums[b]. Then, on the caller, the
// carries: carry[0] is task 0's last value, carry[b+1] = op(carry[b],
// sums[b]). Phase 2, one loop: task 0 scans [last, n) from the carry after
// the last middle block; task 1+b scans middle block b from carry[b]. The
// big tasks come first, so that they start first.
func scan[T any](call string, out, in []T, identity T, op func(T, T) T, inclusive bool, opts []Option) {
	n := len(in)
	first, last, block := scanPlan(n)
	// scanRange scans in[lo:hi] into out from carry and returns the
	// inclusive value at hi-1.
	scanRange := func(lo, hi int, carry T) T {
		acc := carry
		if inclusive {
			for i, x := range in[lo:hi] {
				acc = op(acc, x)
				out[lo+i] = acc
			}
			return acc
		}
		// Exclusive: the inclusive scan shifted by one, so that the two
		// agree bit for bit at block boundaries too.
		for i, x := range in[lo:hi] {
			acc = op(acc, x)
			if lo+i+1 < len(out) {
				out[lo+i+1] = acc
			}
		}
		return acc
	}
	if !inclusive && n > 0 {
		out[0] = identity
	}
	c := configure(call, opts)
	if first == n {
		guard(c.call, func() { scanRange(0, n, identity) })
		return
	}
	nb := (last - first + block - 1) / block
	bounds := func(b int) (int, int) { return first + b*block, min(first+(b+1)*block, last) }
	c.grain = 1             // tasks are the items: one at a time, the big ones first
	sums := make([]T, nb+1) // sums[nb]: the carry out of the first part
	execute(nil, 0, nb+1, c, func(_, t0, t1 int) error {
		for t := t0; t < t1; t++ {
			if t == 0 {
				sums[nb] = scanRange(0, first, identity)
				continue
			}
			lo, hi := bounds(t - 1)
			acc := identity
			for _, x := range in[lo:hi] {
				acc = op(acc, x)
			}
			sums[t-1] = acc
		}
		return nil
	})
	carry := make([]T, nb+1) // carry[b]: into middle block b; carry[nb]: into the last part
	carry[0] = sums[nb]
	guard(c.call, func() {
		for b := range nb {
			carry[b+1] = op(carry[b], sums[b])
		}
	})
	execute(nil, 0, nb+1, c, func(_, t0, t1 int) error {
		for t := t0; t < t1; t++ {
			if t == 0 {
				scanRange(last, n, carry[nb])
				continue
			}
			lo, hi := bounds(t - 1)
			scanRange(lo, hi, carry[t-1])
		}
		return nil
	})
}
