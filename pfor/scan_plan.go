package pfor

import "context"

// scanPlan is the cut of a parallel scan of n elements, a function of n
// only: the calls of op, and so the result's bits, are the same whatever
// the workers. [0, n) is cut in tiles of scanTile to 2*scanTile elements
// (in one tile if n is shorter), tile t being [lo(t), lo(t+1)), and each
// tile in three: a first part of a third of it, scanned from the carry
// into the tile; a middle part, cut in blocks of scanBlock, each folded
// from identity, then scanned from its carry; and a last part of a third,
// scanned from the carry out of the middle.
type scanPlan struct{ n, tiles int }

func newScanPlan(n int) scanPlan { return scanPlan{n, max(1, n/scanTile)} }

// lo returns where tile t starts, for t in [0, tiles]; lo(tiles) is n.
// The tiles' lengths differ by one at most, the longest first.
func (p scanPlan) lo(t int) int {
	q, r := p.n/p.tiles, p.n%p.tiles
	return t*q + min(t, r) // t*q <= n: no overflow
}

// middle returns the bounds of tile t's middle part.
func (p scanPlan) middle(t int) (first, last int) {
	lo, hi := p.lo(t), p.lo(t+1)
	return lo + (hi-lo)/3, hi - (hi-lo)/3
}

// blocks returns how many blocks tile t's middle part holds.
func (p scanPlan) blocks(t int) int {
	first, last := p.middle(t)
	return (last - first + scanBlock - 1) / scanBlock
}

// block returns the bounds of block b of tile t's middle part.
func (p scanPlan) block(t, b int) (lo, hi int) {
	first, last := p.middle(t)
	lo = first + b*scanBlock
	return lo, min(lo+scanBlock, last)
}

// tiles writes the scan of in to out, as scanPlan cuts it, in one parallel
// loop per tile and one more, and reports whether the scan is complete:
// false if it was canceled or op panicked.
//
// Step k's loop has three kinds of task. Task 0 is the chain: it scans the
// last part of tile k-1 and the first part of tile k, which are adjacent,
// from the carry into the former, and so finds the carry into tile k's
// middle. Then come the scans of tile k-1's middle blocks from their
// carries, and the folds of tile k's middle blocks from identity. Between
// the loops the caller combines the carries into tile k's middle blocks
// and into its last part. The chain, the longest task, comes first, so
// that it starts first.
//
// Each element is read from memory once: a middle block is folded in one
// step and scanned in the next, while it is still in cache, as a tile is
// short. A middle element costs two calls of op and any other element
// one: 4n/3 calls in all, 2n/3 of them on the chain, one after the other.
//
// Rejected: one loop folding a middle third of the whole input, then one
// scanning the rest, which makes the same calls but reads the middle third
// from memory twice, on cores that share the memory's bandwidth. Rejected
// too: scanning the middle
// blocks from identity and then combining each output with its carry (scan,
// then add the offset), which makes as many calls and reads and writes the
// output twice. And handing the carries from worker to worker as each
// block ends (a chained scan, no loop per tile): a worker waits whenever
// the one before it is off its core, where a loop per tile lets the caller
// take over the tasks of a late helper, for a call per tile. And cutting
// the input among the workers, or in tiles by the worker count, which
// makes the grouping, and so a float scan's bits, depend on them.
func (s *scanner[T]) tiles(ctx context.Context, c config, identity T) bool {
	p := newScanPlan(len(s.in))
	// sums[b]: tile k's middle block b's fold; carries[b]: the carry into
	// tile k-1's middle block b. The tiles have two lengths, the longer
	// first, and either may have the more blocks (a tile of 3m+2 elements
	// has a middle of m+2, one of 3m+3 a middle of m+1).
	nb := max(p.blocks(0), p.blocks(p.tiles-1))
	sums, carries := make([]T, nb), make([]T, nb)
	var k, from, to, scans int
	acc := identity // the carry into [from, to), then out of it
	step := func(_, t0, t1 int) error {
		return s.each(t0, t1, func(t int) {
			switch {
			case t == 0:
				acc = s.scanBlocks(from, to, acc)
			case t <= scans:
				lo, hi := p.block(k-1, t-1)
				s.scan(lo, hi, carries[t-1])
			default:
				lo, hi := p.block(k, t-1-scans)
				sums[t-1-scans] = s.fold(lo, hi, identity)
			}
		})
	}
	for k = 0; ; k++ {
		folds := 0
		to = len(s.in)
		if k < p.tiles {
			to, _ = p.middle(k)
			folds = p.blocks(k)
		}
		if err := execute(ctx, 0, 1+scans+folds, c, step); err != nil || s.stop.Load() {
			return false
		}
		if k == p.tiles {
			return true
		}
		guard(c.call, func() {
			for b, sum := range sums[:folds] {
				carries[b] = acc
				acc = s.op(acc, sum)
			}
		})
		_, from = p.middle(k)
		scans = folds
	}
}
