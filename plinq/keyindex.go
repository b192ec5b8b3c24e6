package plinq

// The key index: the distinct keys of a slice numbered in order of first
// appearance, which GroupBy, Distinct, the set operators and Join share.
//
// Phase 1, in parallel over fixed blocks of groupBlock items: each block
// numbers its own distinct keys in first-appearance order, with a
// denseIndex of the worker's while the keys are integers of small range and
// with a map of the worker's after that (both cleared between blocks), and
// records every item's local number (16 bits: a block has at most 65536
// keys), each local key's first item and count. Phase 2 merges the blocks'
// key lists in block order, which numbers the keys globally, still in
// first-appearance order. It costs a map operation per distinct key per
// block: cheap on the calling goroutine when keys repeat across blocks
// (1,000 keys over 10M items: 153,000 operations against 10M), and as slow
// as a sequential map loop when nearly every key is distinct; past
// parallelMerge local keys, the merge is partitioned by hash and runs in
// parallel (keymerge.go). GroupBy then places the items, group by group, in
// one pass in parallel over the blocks (arrange).

var groupBlock = 1 << 16 // at most 1<<16: local key numbers are 16 bits

// directGroups is the most keys a block may have for arrange to scatter
// its items straight to their groups.
const directGroups = 32

// A keyIndex numbers the distinct keys of items, by ==, in first-appearance
// order: key g is the g-th distinct key met in a scan of items.
type keyIndex[K comparable] struct {
	keys   []K   // keys[g]
	first  []int // first[g]: position of the first item with key g
	count  []int // count[g]: number of items with key g
	table  keyLookup[K]
	local  []uint16     // local[i]: item i's key number within its block
	blocks []blockIndex // per block
}

// blockIndex is one block's keys, numbered locally.
type blockIndex struct {
	first []int // first[l]: position of the block's first item with local key l
	count []int // count[l]
	group []int // group[l]: the global number of local key l
}

// indexKeys builds the key index of items, calling key once per item,
// concurrently.
func indexKeys[T any, K comparable](x *exec, items []T, key func(T) K) *keyIndex[K] {
	n := len(items)
	nb := (n + groupBlock - 1) / groupBlock
	ix := &keyIndex[K]{local: make([]uint16, n), blocks: make([]blockIndex, nb)}
	blockKeys := make([][]K, nb)
	bits := keyBits[K]()
	blocks(x, nb,
		func(*worker) *blockNumbering[T, K] {
			return &blockNumbering[T, K]{m: make(map[K]int), dense: startDense(bits != nil)}
		},
		func(s *blockNumbering[T, K], b0, b1 int) bool {
			for b := b0; b < b1; b++ {
				lo := b * groupBlock
				blockKeys[b] = s.number(items[lo:min(lo+groupBlock, n)], lo, key, bits, &ix.blocks[b], ix.local[lo:])
			}
			return true
		}, nil)
	mergeKeys(x, ix, blockKeys)
	return ix
}

// mergeKeys is phase 2: it numbers the blocks' keys globally, on the
// calling goroutine or, past parallelMerge local keys, in parallel.
func mergeKeys[K comparable](x *exec, ix *keyIndex[K], blockKeys [][]K) {
	locals := 0
	for _, keys := range blockKeys {
		locals += len(keys)
	}
	if locals > parallelMerge {
		mergeParallel(x, ix, blockKeys)
	} else {
		mergeBlocks(ix, blockKeys)
	}
}

// A blockNumbering is a worker's tables for numbering the keys of a block.
type blockNumbering[T any, K comparable] struct {
	keyBatch[T, K]
	m     map[K]int  // local numbers, once dense is off
	dense denseIndex // local numbers while on
	us    []uint64   // the bits of the block's keys, to clear dense
	keys  []K        // the block's keys
	bi    *blockIndex
}

// number numbers the keys of the block items, whose first item is item lo
// of the index, in bi and local, and returns the block's keys.
func (s *blockNumbering[T, K]) number(items []T, lo int, key func(T) K, bits func([]K, []uint64), bi *blockIndex, local []uint16) []K {
	s.begin(bi)
	for a := 0; a < len(items); a += batchLen {
		e := min(a+batchLen, len(items))
		s.add(items[a:e], lo+a, key, bits, local[a:e])
	}
	return s.end()
}

// begin starts numbering the keys of a block in bi.
func (s *blockNumbering[T, K]) begin(bi *blockIndex) { s.keys, s.bi = nil, bi }

// add numbers the keys of the block's next items b, whose first is item i
// of the index, in local (len(local) >= len(b)).
func (s *blockNumbering[T, K]) add(b []T, i int, key func(T) K, bits func([]K, []uint64), local []uint16) {
	keys, us := s.keysOf(b, key, bits)
	s.addKeys(keys, us, i, local)
}

// addKeys is add for the keys of the items, and their bits us.
func (s *blockNumbering[T, K]) addKeys(keys []K, us []uint64, i int, local []uint16) {
	local = local[:len(us)]
	for j, u := range us {
		l := int(s.dense.find(u))
		if l < 0 {
			l = s.slow(keys[j], u, i+j)
		}
		local[j] = uint16(l)
		s.bi.count[l]++
	}
}

// end ends the block, clearing the tables for the next, and returns the
// block's keys in first-appearance order.
func (s *blockNumbering[T, K]) end() []K {
	if s.dense.on {
		s.dense.clear(s.us)
		s.us = s.us[:0]
	} else {
		clear(s.m)
	}
	return s.keys
}

// slow returns the local number of k, whose bits are u, at item i, which
// the dense index does not hold: a new key, or any key once it is off.
func (s *blockNumbering[T, K]) slow(k K, u uint64, i int) int {
	// When dense turns off, the keys it numbered in this block are not
	// moved to the map: one met again gets a second local number, all of
	// whose items come after those of its first, and the merge gives both
	// the same group, so the block's items stay in order.
	if s.dense.on && s.dense.set(u, int32(len(s.keys))) {
		s.us = append(s.us, u)
		return s.newKey(k, i)
	}
	if l, ok := s.m[k]; ok {
		return l
	}
	l := s.newKey(k, i)
	s.m[k] = l
	return l
}

// newKey numbers k, first met at item i, in the block and returns its local number.
func (s *blockNumbering[T, K]) newKey(k K, i int) int {
	s.keys = append(s.keys, k)
	s.bi.first = append(s.bi.first, i)
	s.bi.count = append(s.bi.count, 0)
	return len(s.keys) - 1
}

// mergeBlocks is phase 2 on the calling goroutine: the blocks' keys are
// looked up in one map, in block order.
func mergeBlocks[K comparable](ix *keyIndex[K], blockKeys [][]K) {
	lookup := make(map[K]int)
	locals := 0
	for _, keys := range blockKeys {
		locals += len(keys)
	}
	groups := make([]int, locals) // the blocks' group, in one allocation
	for b, keys := range blockKeys {
		bi := &ix.blocks[b]
		bi.group, groups = groups[:len(keys)], groups[len(keys):]
		for l, k := range keys {
			g, ok := lookup[k]
			if !ok {
				g = len(ix.keys)
				lookup[k] = g
				ix.keys = append(ix.keys, k)
				ix.first = append(ix.first, bi.first[l])
				ix.count = append(ix.count, 0)
			}
			bi.group[l] = g
			ix.count[g] += bi.count[l]
		}
	}
	ix.table = keyLookup[K]{maps: []map[K]int{lookup}}
}

// arrange returns items reordered group by group, in group order, each
// group's items in their order in items, and where each group starts:
// group g is all[start[g]:start[g+1]]. It is a stable counting sort by group
// number, in parallel over the blocks. A block of more than directGroups
// keys is first sorted by local key in a buffer of the worker's, which
// stays in cache, and then each of its runs is copied to its place:
// scattering the items straight to their groups would write to as many
// places in all as there are groups, and with a thousand groups, most of
// those writes would miss the cache and the TLB. A block of fewer keys
// writes to few places, which the cache holds: it scatters straight, and
// saves a copy.
func arrange[T any, K comparable](x *exec, ix *keyIndex[K], items []T) (all []T, start []int) {
	start, dest := ix.places()
	all = make([]T, len(items))
	type scratch struct {
		buf []T
		off []int
	}
	blocks(x, len(ix.blocks),
		func(*worker) *scratch { return &scratch{} },
		func(s *scratch, b0, b1 int) bool {
			for b := b0; b < b1; b++ {
				bi := &ix.blocks[b]
				lo := b * groupBlock
				if len(bi.count) <= directGroups { // few runs: straight to their places
					s.off = append(s.off[:0], dest[b]...)
					for i, v := range items[lo:min(lo+groupBlock, len(items))] {
						l := ix.local[lo+i]
						all[s.off[l]] = v
						s.off[l]++
					}
					continue
				}
				if s.buf == nil {
					s.buf = make([]T, min(groupBlock, len(items)))
				}
				s.off = s.off[:0]
				sum := 0
				for _, c := range bi.count {
					s.off = append(s.off, sum)
					sum += c
				}
				for i, v := range items[lo:min(lo+groupBlock, len(items))] {
					l := ix.local[lo+i]
					s.buf[s.off[l]] = v
					s.off[l]++
				}
				for l, c := range bi.count { // off[l] is now the end of run l
					copy(all[dest[b][l]:], s.buf[s.off[l]-c:s.off[l]])
				}
			}
			return true
		}, nil)
	return all, start
}

// places returns where each group starts in the items arranged group by
// group (group g is [start[g], start[g+1])), and where each block's run of
// each of its local keys goes (dest[b][l]): after the same group's items in
// earlier blocks.
func (ix *keyIndex[K]) places() (start []int, dest [][]int) {
	start = make([]int, len(ix.keys)+1)
	for g, c := range ix.count {
		start[g+1] = start[g] + c
	}
	placed := make([]int, len(ix.keys))
	dest = make([][]int, len(ix.blocks))
	for b := range ix.blocks {
		bi := &ix.blocks[b]
		d := make([]int, len(bi.group))
		for l, g := range bi.group {
			d[l] = start[g] + placed[g]
			placed[g] += bi.count[l]
		}
		dest[b] = d
	}
	return start, dest
}

// firsts returns the first item of each group, in group order.
func firsts[T any, K comparable](x *exec, ix *keyIndex[K], items []T) []T {
	out := make([]T, len(ix.first))
	const piece = 1 << 14
	each(x, (len(out)+piece-1)/piece, func(p0, p1 int) {
		for g := p0 * piece; g < min(p1*piece, len(out)); g++ {
			out[g] = items[ix.first[g]]
		}
	})
	return out
}
