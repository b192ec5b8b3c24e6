package plinq

// A KeyValue is a key and the value a grouping operator computed for it
// (CountBy's count, AggregateBy's fold), as .NET's KeyValuePair.
type KeyValue[K comparable, V any] struct {
	Key   K
	Value V
}

// CountBy returns the query of how many of q's elements have each key(x),
// by ==: one pair per distinct key, in the order in which the keys first
// appear in q (GroupBy's order of groups), the same in every run whatever
// the workers and the partitioner. The query runs when a terminal
// operation runs it; key is then called once per element, concurrently
// from several goroutines. Counting takes O(n) time and O(k) memory for k
// distinct keys, and keeps none of the elements (unless q may yield
// several elements per index of its source, as after SelectMany: then q is
// collected first, as GroupBy collects it). A NaN key, unequal to itself,
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
// elements' local numbers: the keys in first-appearance order and their
// counts. Each worker numbers the keys of a block of groupBlock indices at
// a time, with a blockNumbering, counting each local key, and the blocks'
// keys are merged as GroupBy's are (mergeKeys). A slice, or a Where over
// one, runs as one loop that calls the predicate and the key per element.
// A flow may yield any number of elements per index (after SelectMany), so
// a block's keys are cut into parts of at most groupBlock local keys,
// merged as blocks of their own: the merge numbers local keys in 16 bits.
// The index's first positions are the elements' indices in the source
// where the flow is a slice or a Where over one, else the block's first
// index: only the keys and counts are used.
func countKeys[T any, K comparable](x *exec, f flow[T], key func(T) K) *keyIndex[K] {
	bl := groupBlock
	nb := (f.n + bl - 1) / bl
	parts := make([][]countedPart[K], nb) // parts[b]: block b's, in order
	sh, isInt := shapeOf[K]()
	elems, pred, fused := f.sliceElems()
	blocks(x, nb,
		func(w *worker) *keyCounter[T, K] {
			c := &keyCounter[T, K]{key: key, sh: sh}
			c.m, c.dense = make(map[K]int), startDense(isInt)
			if fused {
				c.pred = pred
				c.run = func(lo, hi int) bool {
					for lo < hi {
						if w.stopped() {
							return false
						}
						e := lo + min(batchLen, hi-lo)
						c.count(elems[lo:e], lo)
						lo = e
					}
					return true
				}
			} else {
				at := 0
				run := f.open(w, func(b []T) bool { c.count(b, at); return true })
				c.run = func(lo, hi int) bool { at = lo; return run(lo, hi) }
			}
			return c
		},
		func(c *keyCounter[T, K], b0, b1 int) bool {
			for b := b0; b < b1; b++ {
				lo := b * bl
				c.parts = nil
				c.start()
				ok := c.run(lo, min(lo+bl, f.n))
				c.finish()
				parts[b] = c.parts
				if !ok {
					return false
				}
			}
			return true
		}, nil)
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

// A countedPart is a block's counted keys, or a part of them.
type countedPart[K comparable] struct {
	bi   blockIndex
	keys []K
}

// A keyCounter is a worker's tables for counting the keys of a block.
type keyCounter[T any, K comparable] struct {
	blockNumbering[T, K]
	pred  func(T) bool // nil: every element
	key   func(T) K
	sh    intShape
	sel   []int32 // the offsets in a batch of the elements pred keeps
	run   func(lo, hi int) bool
	parts []countedPart[K] // the block's parts counted so far
	cnt   []int            // bi.count, as of the last new key
	buf   blockIndex       // the part's first and count, reused by the next part
	kbuf  []K              // the part's keys, reused by the next part
}

// start starts a part of the block, in the worker's buffers.
func (c *keyCounter[T, K]) start() {
	c.buf.first, c.buf.count = c.buf.first[:0], c.buf.count[:0]
	c.begin(&c.buf)
	c.keys, c.cnt = c.kbuf[:0], c.buf.count
}

// finish ends the part being counted, copying it out of the buffers in
// two allocations.
func (c *keyCounter[T, K]) finish() {
	keys := c.end()
	n := len(keys)
	fc := make([]int, 2*n)
	copy(fc, c.buf.first)
	copy(fc[n:], c.buf.count)
	c.parts = append(c.parts, countedPart[K]{blockIndex{first: fc[:n:n], count: fc[n:]}, append([]K(nil), keys...)})
	c.kbuf = keys
}

// count counts the keys of the elements of b that pred keeps, b[0] being
// item at of the index space if f is a slice or a Where over one; the
// elements are selected first, without a branch (see selectOffsets). A
// key the dense index holds costs a subtraction, a comparison and an
// increment.
func (c *keyCounter[T, K]) count(b []T, at int) {
	var sel []int32
	c.sel, sel = selectOffsets(c.sel, b, c.pred)
	for _, i := range sel {
		k := c.key(*elemAt(b, i))
		u := bitsOfKey(k, c.sh) // unused unless K is an integer kind (dense is off otherwise)
		if off := u - c.dense.base; off < uint64(len(c.dense.slots)) {
			if l := uint(c.dense.slots[off]); l < uint(len(c.cnt)) { // -1: no number yet
				c.cnt[l]++
				continue
			}
		}
		if len(c.keys) == groupBlock { // the part is full: its keys may be new
			c.finish()
			c.start()
		}
		c.bi.count[c.slow(k, u, at+int(i))]++
		c.cnt = c.bi.count
	}
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
