package plinq

import (
	"math/bits"
	"unsafe"
)

// A KeyValue is a key and the value a grouping operator computed for it
// (CountBy's count, AggregateBy's fold).
type KeyValue[K comparable, V any] struct {
	Key   K // a distinct key of the query's elements, by ==
	Value V // what the operator computed over the elements with that key
}

// CountBy returns the query of how many of q's elements have each key(x),
// by ==: one pair per distinct key, in the order in which the keys first
// appear in q (GroupBy's order of groups), the same in every run whatever
// the workers and the partitioner. The query runs when a terminal
// operation runs it; key is then called once per element, concurrently
// from several goroutines. Counting takes O(n) time and O(k) memory for k
// distinct keys, and keeps none of the elements. A NaN key, unequal to itself,
// is counted apart per element, as in a map loop. For a map, range over
// the pairs (see the example). CountBy panics if key is nil.
func CountBy[T any, K comparable](q Query[T], key func(T) K) Query[KeyValue[K, int]] {
	mustFunc("CountBy", "key", key == nil)
	return derive(q, func(x *exec) flow[KeyValue[K, int]] {
		ix := countKeys(x, q.flow(x), key)
		return ownedFlow(pairs(x, ix.keys, ix.count))
	})
}

// countKeys is the key index of f's elements (keyindex.go) without the
// elements' local numbers or first positions: the keys in first-appearance
// order and their counts. The index space is cut into blocks of at most
// groupBlock indices, and into no more than maxSegments of them where
// that leaves them at most groupBlock long (segmentLen; above
// maxSegments*groupBlock indices there are more blocks, of groupBlock
// each), which the workers take one at a time. A worker counts each run of consecutive
// blocks it takes as one, in first-appearance order: in a denseCount while
// the keys are integers of small range and with a map after that. The
// runs' keys are merged in the order of their first blocks, as GroupBy's
// blocks are (mergeKeys): fine blocks balance the workers, and runs keep
// the keys to merge few. A slice, or a Where over one, runs with no batch
// of elements copied: per batch, one loop selects the elements
// (selectMasks), and one calls the key on each element selected. A run's keys are cut
// into parts, merged as blocks of their own: the keys it counted in the
// denseCount before turning it off (at most denseSpan), and then parts of
// at most groupBlock keys, as the merge numbers local keys in 16 bits and
// a flow may yield any number of elements per index (after SelectMany). A
// key in several parts of a run gets one group, placed by the first part
// that has it, which keeps the order. The index's first positions are not
// kept (all 0): only the keys and counts are used.
func countKeys[T any, K comparable](x *exec, f flow[T], key func(T) K) *keyIndex[K] {
	bl := min(groupBlock, segmentLen(f.n))
	nb := (f.n + bl - 1) / bl
	parts := make([][]countedPart[K], nb) // parts[b]: those of the run that starts at block b, in order
	sh, isInt := shapeOf[K]()
	elems, pred, fused := f.sliceElems()
	blocks(x, nb,
		func(w *worker) *keyCounter[T, K] {
			c := &keyCounter[T, K]{key: key, sh: sh, d: denseCount{on: isInt}, next: -1}
			c.m = make(map[K]int)
			if fused {
				c.pred = pred
				c.run = func(lo, hi int) bool {
					for lo < hi {
						if w.stopped() {
							return false
						}
						e := lo + min(batchLen, hi-lo)
						c.count(elems[lo:e])
						lo = e
					}
					return true
				}
			} else {
				c.run = f.open(w, func(b []T) bool { c.count(b); return true })
			}
			return c
		},
		func(c *keyCounter[T, K], b0, b1 int) bool {
			for b := b0; b < b1; b++ {
				if b != c.next { // b does not continue the worker's run: it starts one
					c.endRun(parts)
					c.from, c.at = b, len(c.parts)
					c.start()
				}
				// A block whose run stops early does not stop the loop:
				// the blocks before it must run to the end (see number in
				// groupFlow).
				lo := b * bl
				c.run(lo, min(lo+bl, f.n))
				c.next = b + 1
			}
			return true
		},
		func(c *keyCounter[T, K]) { c.endRun(parts) })
	ix := &keyIndex[K]{}
	var blockKeys [][]K
	for _, ps := range parts {
		for _, p := range ps {
			ix.blocks = append(ix.blocks, p.bi)
			blockKeys = append(blockKeys, p.keys)
		}
	}
	mergeKeys(x, ix, blockKeys)
	return ix
}

// A countedPart is a run's counted keys, or a part of them.
type countedPart[K comparable] struct {
	bi   blockIndex
	keys []K
}

// A keyCounter is a worker's tables for counting the keys of a run of
// blocks: the denseCount while it is on, and a blockNumbering's map (its
// denseIndex off) from then on.
type keyCounter[T any, K comparable] struct {
	blockNumbering[T, K]
	d     denseCount
	pred  func(T) bool // nil: every element
	key   func(T) K
	sh    intShape
	masks []uint64 // the bits of the elements of a batch that pred keeps
	run   func(lo, hi int) bool
	buf   blockIndex // the map part's first and count, reused by the next part
	kbuf  []K        // the map part's keys, reused by the next part
	// The parts counted, and their keys, counts and first positions (all
	// 0), for addPart.
	parts     []countedPart[K]
	outKeys   []K
	outCounts []int
	zeros     []int
	// The run of blocks being counted: its first block, where its parts
	// start in parts, and the block after its last (-1: no run).
	from, at, next int
}

// count counts the keys of the elements of b that pred keeps, selected
// first without a branch (see selectMasks).
func (c *keyCounter[T, K]) count(b []T) {
	var masks []uint64
	c.masks, masks = selectMasks(c.masks, b, c.pred)
	for w, m := range masks {
		c.word(b[w*64:], m)
	}
}

// word counts the keys of the elements b[j] whose bit j is set in m. A key
// in the denseCount's window costs a subtraction, a comparison, an
// increment and a test for 1. Apart from count, so that its loop keeps
// only c, b and m across the calls of key.
//
//go:noinline
func (c *keyCounter[T, K]) word(b []T, m uint64) {
	at := unsafe.Pointer(unsafe.SliceData(b))
	for ; m != 0; m &= m - 1 {
		k := c.key(*(*T)(unsafe.Add(at, uintptr(bits.TrailingZeros64(m))*unsafe.Sizeof(*new(T)))))
		u := bitsOfKey(k, c.sh) // unused unless K is an integer kind (d.n is empty otherwise)
		if off := u - c.d.base; off < uint64(len(c.d.n)) {
			n := c.d.n
			v := n[off] + 1
			n[off] = v
			if v == 1 { // the run's first element with this key
				c.d.touched = append(c.d.touched, u)
			}
			continue
		}
		c.slow(k, u)
	}
}

// slow counts k, whose bits u are outside the denseCount's window: it
// widens the window for u, or turns it off and counts k with the map.
func (c *keyCounter[T, K]) slow(k K, u uint64) {
	if c.d.take(u) {
		c.d.touched = append(c.d.touched, u)
		c.d.n[u-c.d.base]++
		return
	}
	if c.d.on {
		c.flush()
		c.d.off()
	}
	if len(c.keys) == groupBlock { // the part is full: its keys may be new
		c.finish()
		c.start()
	}
	c.bi.count[c.blockNumbering.slow(k, u, 0)]++
}

// endRun ends the worker's run of blocks, if any, and sets parts[c.from]
// to its parts.
func (c *keyCounter[T, K]) endRun(parts [][]countedPart[K]) {
	if c.next < 0 {
		return
	}
	c.flush()
	c.finish()
	parts[c.from], c.next = c.parts[c.at:], -1
}

// flush ends the denseCount's part of the run, if it counted a key,
// clearing its counts for the next.
func (c *keyCounter[T, K]) flush() {
	d, at := &c.d, len(c.outKeys)
	for _, u := range d.touched {
		c.outKeys = append(c.outKeys, keyOfBits[K](u, c.sh))
		c.outCounts = append(c.outCounts, d.n[u-d.base])
		d.n[u-d.base] = 0
	}
	d.touched = d.touched[:0]
	c.addPart(at)
}

// start starts a map part of the run, in the worker's buffers.
func (c *keyCounter[T, K]) start() {
	c.buf.first, c.buf.count = c.buf.first[:0], c.buf.count[:0]
	c.begin(&c.buf)
	c.keys = c.kbuf[:0]
}

// finish ends the map part being counted, if it counted a key.
func (c *keyCounter[T, K]) finish() {
	keys, at := c.end(), len(c.outKeys)
	c.kbuf = keys
	c.outKeys = append(c.outKeys, keys...)
	c.outCounts = append(c.outCounts, c.buf.count...)
	c.addPart(at)
}

// addPart adds the keys and counts from at on, if any, as a part of the
// run. The parts, their keys and their counts are slices of the
// worker's, which later parts append to past them: a worker allocates
// O(log n) times, not once per part.
func (c *keyCounter[T, K]) addPart(at int) {
	e := len(c.outKeys)
	if e == at {
		return
	}
	if len(c.zeros) < e-at {
		c.zeros = make([]int, max(e-at, 2*len(c.zeros)))
	}
	bi := blockIndex{first: c.zeros[:e-at], count: c.outCounts[at:e]}
	c.parts = append(c.parts, countedPart[K]{bi, c.outKeys[at:e]})
}

// pairs returns the pairs of keys and values, made in parallel.
func pairs[K comparable, V any](x *exec, keys []K, values []V) []KeyValue[K, V] {
	out := make([]KeyValue[K, V], len(keys))
	const piece = 1 << 14
	each(x, (len(out)+piece-1)/piece, func(p0, p1 int) {
		for i := p0 * piece; i < min(p1*piece, len(out)); i++ {
			out[i] = KeyValue[K, V]{keys[i], values[i]}
		}
	})
	return out
}
