package plinq

import (
	"math/bits"
	"slices"
	"unsafe"
)

// AggregateBy returns the query of the elements of q folded per key, by
// ==, into a value of each key's own, in one parallel pass, without
// collecting them: GroupBy followed by an Aggregate per group, for a
// grouped sum or count, or any fold that does not need a group's elements
// side by side. It has one pair per distinct key, in the order in which
// the keys first appear in q (GroupBy's order of groups), and runs when a
// terminal operation runs it. The value of key k is the fold of the elements x with key(x) == k from identity, in
// query order, cut into parts and combined as Aggregate does: the parts
// depend only on the length of q's source, so the result is the same in
// every run, whatever the workers and the partitioner (a float sum per key
// too, bit for bit). combine must be associative and identity an identity
// of combine; neither needs to be commutative. identity is copied as a
// value into every part that has elements of a key, so a pointer, map or
// slice identity would be shared by them: use a nil one, and let fold
// allocate a part's own value when it gets nil.
//
// When the query runs, key is called once per element and fold once per
// element, concurrently from several goroutines; combine, on the goroutine
// of the terminal operation, once per part of q's source that has elements
// of the key, but the first. AggregateBy takes O(n + k log k) time and
// O(k) memory for k distinct keys. A NaN key, unequal to itself, has a
// pair of its own per element, as in a map loop. AggregateBy panics if
// key, fold or combine is nil.
func AggregateBy[T any, K comparable, A any](q Query[T], key func(T) K, identity A, fold func(A, T) A, combine func(A, A) A) Query[KeyValue[K, A]] {
	mustFunc("AggregateBy", "key", key == nil)
	mustFunc("AggregateBy", "fold", fold == nil)
	mustFunc("AggregateBy", "combine", combine == nil)
	return derive(q, func(x *exec) flow[KeyValue[K, A]] {
		return ownedFlow(aggregateBy(x, q.flow(x), key, identity, fold, combine))
	})
}

// aggregateBy is AggregateBy's run.
func aggregateBy[T any, K comparable, A any](x *exec, f flow[T], key func(T) K, identity A, fold func(A, T) A, combine func(A, A) A) []KeyValue[K, A] {
	// Each worker folds a block at a time: integer keys of small range
	// into a denseFold, the dense array a hand-written loop folds into,
	// other keys into the parts of a keyTable (found by a dense index, by
	// scanning while it has met at most fewKeys, and with a map after
	// that). At the end of a block, the denseFold's values join their
	// keys' parts. The values of each key are combined in part order at
	// the end (combineByKey), and the keys ordered by the block and the
	// rank in it of their first element. A Where over a slice runs fused
	// into the fold, with no batch of elements copied: per batch, one loop
	// selects the elements (selectMasks), and one calls the key and the
	// fold on each element selected.
	bl := segmentLen(f.n)
	sh, isInt := shapeOf[K]()
	elems, pred, fused := f.sliceElems()
	type state struct {
		keyTable[K, A]
		block int // the block being folded
		rank  int // the keys the block has started values of
		folder[T, K, A]
		put func(k K, u uint64, v A)
		run func(lo, hi int) bool
	}
	// slow folds v, whose key k has the bits u, where the window has no
	// value of k for the block: it starts one, or folds v into k's parts
	// once the window is off. Out of fold1's loop, to keep that loop
	// short.
	slow := func(s *state, k K, u uint64, v T) {
		if s.d.start(k, u, int32(s.block+1), identity) {
			a := &s.d.slots[u-s.d.base].acc
			*a = fold(*a, v)
			return
		}
		if s.d.on { // k is outside the window: its values move to the parts
			s.d.flush(s.put)
			s.d.off()
		}
		i := s.index(k, u)
		if s.parts[i].block != s.block { // the key's first element in this block
			s.start(i, k, s.block, s.rank, identity)
			s.rank++
		}
		p := &s.parts[i]
		p.value = fold(p.value, v)
	}
	var states []*state
	blocks(x, (f.n+bl-1)/bl,
		func(w *worker) *state {
			s := &state{keyTable: keyTable[K, A]{dense: startDense(isInt)}}
			s.folder = folder[T, K, A]{key: key, fold: fold, d: denseFold[K, A]{on: isInt}, sh: sh,
				slow: func(k K, u uint64, v T) { slow(s, k, u, v) }}
			s.put = func(k K, u uint64, v A) { // the block's value of k, kept at k's next block
				s.start(s.index(k, u), k, s.block, s.rank, v)
				s.rank++
			}
			if fused {
				s.pred = pred
				s.run = func(lo, hi int) bool {
					for lo < hi {
						if w.stopped() {
							return false
						}
						e := lo + min(batchLen, hi-lo)
						s.folder.run(elems[lo:e])
						lo = e
					}
					return true
				}
			} else {
				s.run = f.open(w, func(b []T) bool { s.folder.run(b); return true })
			}
			return s
		},
		func(s *state, b0, b1 int) bool {
			for b := b0; b < b1; b++ {
				s.block, s.st, s.rank = b, int32(b+1), 0
				s.run(b*bl, min((b+1)*bl, f.n))
				s.d.flush(s.put)
			}
			return true
		},
		func(s *state) {
			for i := range s.parts {
				s.keep(i)
			}
			states = append(states, s)
		})
	return combineByKey(states, func(s *state) *keyTable[K, A] { return &s.keyTable }, combine)
}

// segmentLen is the length of the parts of an index space of n that
// AggregateBy folds separately: Aggregate's blocks, but no more than
// maxSegments of them. It depends on n only, which makes AggregateBy
// deterministic. Each key has a value per part it has elements in, so the
// bound keeps the values few where keys are many: 10M items over 1,000 keys
// in Aggregate's 4,096 blocks make up to 4M values (a cost
// BenchmarkGroupBy/impl=plinq-aggregateby measures), in 256 parts at most
// 256,000.
func segmentLen(n int) int { return max(blockLen(n), (n+maxSegments-1)/maxSegments) }

// maxSegments bounds the parts of AggregateBy: enough for the workers of
// large machines to balance, few enough that a key's values stay few.
const maxSegments = 256

// A keyTable is a worker's keys and their parts. Integer keys of small
// range it finds with a denseIndex (the caller looks there first, see
// lookup); other keys, and all keys once the dense index is off, by
// scanning while it has at most fewKeys of them, and by a map after that:
// comparing a key with a few others costs less than hashing it, and most
// groupings have few keys (BenchmarkLoop/impl=plinq-aggregateby/workload=query
// in the benchmarks module measures it).
type keyTable[K comparable, A any] struct {
	parts []keyParts[K, A] // per key, in the order the worker met them
	kept  []keptValue[A]   // the values of the blocks folded, of every key, in the order kept
	at    map[K]int        // index in parts of every key, once there are more than fewKeys and dense is off
	dense denseIndex       // while on, the index in parts of every key
}

// fewKeys is how many keys a keyTable scans before it builds its map.
const fewKeys = 16

// lookup returns the index of the parts of k, whose bits are u, adding
// them if k is new; the caller has found that k is not in dense.
func (t *keyTable[K, A]) lookup(k K, u uint64) int {
	if t.dense.on {
		i := len(t.parts)
		if t.dense.set(u, int32(i)) {
			t.parts = append(t.parts, keyParts[K, A]{key: k, block: -1, first: -1})
			return i
		}
		if i > fewKeys { // dense is off from now on: the map takes over
			t.at = make(map[K]int, 2*i)
			for j := range t.parts {
				t.at[t.parts[j].key] = j
			}
		}
	}
	if i := t.find(k); i >= 0 {
		return i
	}
	return t.add(k)
}

// index returns the index of the parts of k, whose bits are u, adding
// them if k is new.
func (t *keyTable[K, A]) index(k K, u uint64) int {
	if i := t.dense.find(u); i >= 0 {
		return int(i)
	}
	return t.lookup(k, u)
}

// find returns the index of k's parts, or -1 if k is new. A key unequal to
// itself (NaN) is never found, as in a map.
func (t *keyTable[K, A]) find(k K) int {
	if len(t.parts) <= fewKeys {
		for i := range t.parts {
			if t.parts[i].key == k {
				return i
			}
		}
		return -1
	}
	if i, ok := t.at[k]; ok {
		return i
	}
	return -1
}

// add appends empty parts for k and returns their index.
func (t *keyTable[K, A]) add(k K) int {
	i := len(t.parts)
	t.parts = append(t.parts, keyParts[K, A]{key: k, block: -1, first: -1})
	switch {
	case len(t.parts) == fewKeys+1: // from now on, the map
		t.at = make(map[K]int, 2*len(t.parts))
		for j := range t.parts {
			t.at[t.parts[j].key] = j
		}
	case len(t.parts) > fewKeys:
		t.at[k] = i
	}
	return i
}

// keyParts are one worker's parts of one key: the value of the block
// being folded, in block and value, until keep moves it to the worker's
// kept values. first is the least block the worker folded elements of the
// key in, rank the number of keys whose values that block started before
// the key's, and key the key of the key's first element in that block:
// keys equal by == may differ (-0.0 and +0.0), and the pair shows the
// first element's.
type keyParts[K comparable, A any] struct {
	key         K
	block       int // the block value folds, -1 before the first
	value       A
	first, rank int // first is -1 before the first block
}

// A keptValue is the value of the key whose parts are parts[part] in one
// block. One slice of them per worker, rather than one per key, keeps a
// worker's allocations O(log n), whatever the keys.
type keptValue[A any] struct {
	part, block int32 // at most len(parts) and maxSegments
	value       A
}

// A blockValue is a key's value folded in one block.
type blockValue[A any] struct {
	block int
	value A
}

// start starts the value v of block b for the key of parts[i], whose
// first element in b has the key k and is the rank-th key whose value b
// starts, keeping the value of the block before.
func (t *keyTable[K, A]) start(i int, k K, b, rank int, v A) {
	t.keep(i)
	p := &t.parts[i]
	p.block, p.value = b, v
	if p.first < 0 || b < p.first {
		p.key, p.first, p.rank = k, b, rank
	}
}

// keep moves the value of the block parts[i] folds, if any, to kept.
func (t *keyTable[K, A]) keep(i int) {
	if p := &t.parts[i]; p.block >= 0 {
		t.kept = append(t.kept, keptValue[A]{int32(i), int32(p.block), p.value})
		p.block = -1
	}
}

// combineByKey merges the workers' parts, key by key, combines each key's
// values in part order, and returns the keys' values in the order of their
// first elements: by first block, then by rank in it, each with the key of
// its first element. A part is folded by one worker only, so the parts of
// a key never repeat across workers, and no two keys have the same first
// block and rank. A NaN key, which no lookup finds, keeps the one value of
// each of its parts. A key that cannot be hashed (an interface holding a
// slice) panics in the lookup, on the caller's goroutine, and reaches the
// caller as a *pfor.PanicError, as combine's panics do. It allocates O(1)
// times per key merged, not per value.
func combineByKey[S any, K comparable, A any](states []S, tableOf func(S) *keyTable[K, A], combine func(A, A) A) []KeyValue[K, A] {
	type keyValues struct {
		key         K
		first, rank int
		at, n       int // the key's values are values[at:at+n]
	}
	var all []keyValues
	var out []KeyValue[K, A]
	guard(func() {
		at := make(map[K]int)
		var ids []int // per worker, per part, the index in all of its key
		for _, s := range states {
			t := tableOf(s)
			for _, p := range t.parts {
				j, ok := at[p.key]
				if !ok {
					j = len(all)
					all = append(all, keyValues{key: p.key, first: p.first, rank: p.rank})
					at[p.key] = j
				}
				if kv := &all[j]; p.first < kv.first {
					kv.key, kv.first, kv.rank = p.key, p.first, p.rank
				}
				ids = append(ids, j)
			}
			for _, v := range t.kept {
				all[ids[len(ids)-len(t.parts)+int(v.part)]].n++
			}
		}
		n := 0
		for i := range all {
			all[i].at, n = n, n+all[i].n
			all[i].n = 0
		}
		values := make([]blockValue[A], n)
		for _, s := range states {
			t := tableOf(s)
			for _, v := range t.kept {
				kv := &all[ids[v.part]]
				values[kv.at+kv.n] = blockValue[A]{int(v.block), v.value}
				kv.n++
			}
			ids = ids[len(t.parts):]
		}
		slices.SortFunc(all, func(a, b keyValues) int {
			if a.first != b.first {
				return a.first - b.first
			}
			return a.rank - b.rank
		})
		out = make([]KeyValue[K, A], len(all))
		for i := range all {
			bv := values[all[i].at : all[i].at+all[i].n]
			slices.SortFunc(bv, func(a, b blockValue[A]) int { return a.block - b.block })
			acc := bv[0].value
			for _, v := range bv[1:] {
				acc = combine(acc, v.value)
			}
			out[i] = KeyValue[K, A]{all[i].key, acc}
		}
	})
	return out
}

// A folder is one worker's fold of a batch, in memory rather than in
// variables of its loop: the loop then keeps few values live across the
// calls of the user's functions (Go's calls save no register), and each
// field costs a load where it is used.
type folder[T any, K comparable, A any] struct {
	pred  func(T) bool // nil: every element
	key   func(T) K
	fold  func(A, T) A
	d     denseFold[K, A] // the block's accumulators
	st    int32           // the stamp of the block being folded
	sh    intShape
	slow  func(k K, u uint64, v T) // folds an element the window holds no value of k for
	masks []uint64                 // the bits of the elements of a batch that pred keeps
}

// run folds the elements of b that pred keeps: the loop a hand-written
// aggregation runs, with a check of the window in place of an index. The
// elements are selected first, without a branch (see selectMasks).
func (c *folder[T, K, A]) run(b []T) {
	var masks []uint64
	c.masks, masks = selectMasks(c.masks, b, c.pred)
	for w, m := range masks {
		c.word(b[w*64:], m)
	}
}

// word folds the elements b[j] whose bit j is set in m. Apart from run, so
// that its loop keeps only c, b and m across the calls.
//
//go:noinline
func (c *folder[T, K, A]) word(b []T, m uint64) {
	at := unsafe.Pointer(unsafe.SliceData(b))
	for ; m != 0; m &= m - 1 {
		v := (*T)(unsafe.Add(at, uintptr(bits.TrailingZeros64(m))*unsafe.Sizeof(*new(T))))
		k := c.key(*v)
		off := bitsOfKey(k, c.sh) - c.d.base // unused unless K is an integer kind (the window and keyTable's dense index are off)
		if off < uint64(len(c.d.slots)) {
			if s := &c.d.slots[off]; s.stamp == c.st {
				s.acc = c.fold(s.acc, *v)
				continue
			}
		}
		c.slow(k, off+c.d.base, *v)
	}
}
