package pfor

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// A chain is one parallel scan in a single pass over its input: a chained
// scan, whose blocks hand their inclusive prefixes from each to the next.
//
// The plan. The input is cut into blocks that alternate, from index 0: a
// direct block of 2s elements, then a folded block of s elements, and so
// on; the last block, whatever its kind, is direct and may be shorter.
// A block's carry is the inclusive prefix of the block before it (identity
// for block 0), and its own inclusive prefix is
//
//   - for a direct block, the last value of its scan from the carry;
//   - for a folded block, op(carry, f), where f is in[lo], ..., in[hi-1]
//     folded from in[lo].
//
// Every block's outputs are its scan from its carry. The plan depends on n
// and on the size of T only (s: see chainBlock), never on the workers or
// the timing, and so does every value op is called with: the result is
// the same bit for bit in every run.
//
// Why this plan. A folded block costs two op calls per element, but its
// fold needs no carry and so overlaps the direct block before it; a direct
// block costs one call per element and must wait. On two workers one
// scans a direct block while the other scans the folded block before it
// and folds the one after: both are busy, for 2n/3 calls each of the 4n/3
// in all, the least any prefix computation needs on its longest path on
// two workers (Snir's bound, 2n/(p+1) on p workers). A folded block is read
// twice, the second time from the cache; a direct block once: the input
// is read from memory once. Rejected: every block folded, then scanned
// (the GPU chained scan), which makes 2n calls and gains nothing on two
// workers; and a block that skips its fold when its carry is ready when it
// starts, whose prefix then depends on the timing.
//
// The protocol. Workers claim blocks in index order (next), and each
// publishes its block's inclusive prefix (prefix[k], then done[k]) before
// it claims another. Block k's holder waits for done[k-1] only, and block
// k-1 was claimed before k by a goroutine that is running it: the lowest
// unfinished block never waits, so every wait ends, on any number of
// threads, as long as the holder gets to run, which runtime.Gosched in the
// wait loop grants on GOMAXPROCS=1. A holder that panics (or calls
// runtime.Goexit) sets stop on its way out, as does a worker that sees the
// context done before it claims; a waiter gives up when it sees stop, and
// no block is claimed after it.
//
// Who may call what: run is called by every goroutine of the scan's loop,
// any number of times; everything else in the chain is set up before and
// read after the loop.
//
// Linearization points: the Add on next claims a block; the Store on
// done[k] publishes prefix[k], written before it: a waiter's Load that
// sees it true synchronizes with it; the Store on stop ends the scan.
type chain[T any] struct {
	scanner[T]
	identity T
	s, nb    int           // the folded blocks' length and the number of blocks
	prefix   []T           // prefix[k]: block k's inclusive prefix, once done[k]
	done     []atomic.Bool // done[k]: prefix[k] is published
	next     atomic.Int64  // the next block to claim
	stop     atomic.Bool   // a holder failed or the context is done: claim nothing more
	cancel   <-chan struct{}
}

// chainBlock returns s for elements of size size: a folded block of s
// elements, read twice, fits in a core's own cache (about 64 KiB), and
// carries at least 256 elements, enough op calls to make the hand-over
// worth it.
func chainBlock(size uintptr) int {
	return max(256, chainBlockBytes/int(max(size, 1)))
}

// chainBlockBytes is the size of a folded block in bytes; a variable so
// that tests can shrink it.
var chainBlockBytes = 64 << 10

// chainBlocks returns the number of blocks of the plan of n elements with
// folded blocks of s.
func chainBlocks(n, s int) int {
	q, r := n/(3*s), n%(3*s)
	nb := 2 * q
	if r > 2*s {
		nb += 2
	} else if r > 0 {
		nb++
	}
	return nb
}

// sizeOf returns the size of a T.
func sizeOf[T any]() uintptr {
	var x T
	return unsafe.Sizeof(x)
}

// bounds returns block k's elements [lo, hi) and whether it is direct.
func (c *chain[T]) bounds(k int) (lo, hi int, direct bool) {
	lo = k/2*3*c.s + k%2*2*c.s
	hi = lo + c.s
	if k%2 == 0 {
		hi += c.s
	}
	return lo, min(hi, len(c.in)), k%2 == 0 || k == c.nb-1
}

// run claims blocks in index order and scans them until none is left or
// the scan stops.
func (c *chain[T]) run() {
	ok := false
	defer func() {
		if !ok { // op panicked or called runtime.Goexit: no block will see its carry
			c.stop.Store(true)
		}
	}()
	for c.step() {
	}
	ok = true
}

// step claims a block and scans it, and reports whether to go on.
func (c *chain[T]) step() bool {
	if c.stop.Load() {
		return false
	}
	select {
	case <-c.cancel:
		c.stop.Store(true) // ends the scan: the output stays incomplete
		return false
	default:
	}
	k := int(c.next.Add(1) - 1) // claims block k
	if k >= c.nb {
		return false
	}
	lo, hi, direct := c.bounds(k)
	var f T
	if !direct {
		f = c.fold(lo+1, hi, c.in[lo])
	}
	carry := c.identity
	if k > 0 {
		for !c.done[k-1].Load() { // synchronizes with the Store that published prefix[k-1]
			if c.stop.Load() {
				return false
			}
			runtime.Gosched()
		}
		carry = c.prefix[k-1]
	}
	if direct {
		c.prefix[k] = c.scan(lo, hi, carry)
		c.done[k].Store(true) // publishes prefix[k]
		return true
	}
	c.prefix[k] = c.op(carry, f)
	c.done[k].Store(true) // publishes prefix[k] before the scan, for the next block to start
	c.scan(lo, hi, carry)
	return true
}
