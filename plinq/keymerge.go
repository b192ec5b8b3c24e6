package plinq

import (
	"hash/maphash"
	"reflect"
	"unsafe"
)

// The parallel merge of a key index (phase 2, see keyindex.go), for when
// the blocks have many distinct keys: the keys are partitioned by a hash,
// and each partition is merged in block order by one task, with a map of
// its own, so the map operations run in parallel on maps a mergeParts-th
// the size of one. A key is in one partition only, so the first block that
// has it in its partition is the first that has it at all: the partition
// marks that block's local key as new. The keys are then numbered globally
// in first-appearance order by counting the new local keys of the blocks
// before (block by block, each block's in local order, which is its
// first-appearance order), in parallel over the blocks.

// parallelMerge is the most local keys, summed over the blocks, that
// mergeBlocks merges on the calling goroutine; mergeParts is the number of
// partitions of a parallel merge, a power of two at most 256. Variables so
// that tests can change them.
var (
	parallelMerge = 1 << 16
	mergeParts    = 256
)

// A keyLookup finds the global number of a key of a keyIndex. It is read
// concurrently once built.
type keyLookup[K comparable] struct {
	maps   []map[K]int    // one map of global numbers, or one per partition
	global [][]int        // with partitions: global[p][j] is the number of partition p's key j
	hash   func(K) uint64 // with partitions: the partition of k is hash(k) % len(maps)
}

// find returns the global number of k and whether the index has k.
func (t *keyLookup[K]) find(k K) (int, bool) {
	if len(t.maps) == 1 {
		g, ok := t.maps[0][k]
		return g, ok
	}
	p := t.hash(k) & uint64(len(t.maps)-1)
	j, ok := t.maps[p][k]
	if !ok {
		return 0, false
	}
	return t.global[p][j], true
}

// partitionHash returns a hash of K's values consistent with ==: the bits
// of an integer kind, mixed; maphash's for the others.
func partitionHash[K comparable]() func(K) uint64 {
	if ops := intOps[K](); ops != nil {
		one := ops.one
		return func(k K) uint64 { return mix(one(k)) }
	}
	seed := maphash.MakeSeed()
	if reflect.TypeFor[K]().Kind() == reflect.String {
		return func(k K) uint64 { return maphash.String(seed, *(*string)(unsafe.Pointer(&k))) }
	}
	return func(k K) uint64 { return maphash.Comparable(seed, k) }
}

// mix is splitmix64's finalizer: every bit of u moves the high bits.
func mix(u uint64) uint64 {
	u = (u ^ u>>30) * 0xbf58476d1ce4e5b9
	u = (u ^ u>>27) * 0x94d049bb133111eb
	return u ^ u>>31
}

// mergeParallel is phase 2 partitioned by hash, in parallel; it fills ix's
// keys, first, count, the blocks' group and the lookup.
func mergeParallel[K comparable](x *exec, ix *keyIndex[K], blockKeys [][]K) {
	np := mergeParts
	hash := partitionHash[K]()
	// Each block's local keys are copied in partition order, so that a
	// partition's task reads and writes runs of them, not scattered keys.
	type blockParts struct {
		part  []uint8  // part[l]: the partition of local key l
		at    []uint16 // at[l]: where local key l is in partition order
		off   []int    // partition p's local keys are [off[p], off[p+1]) in partition order
		keys  []K      // in partition order, as the ones below
		count []int    // the local keys' counts
		num   []int    // their numbers in their partition
		isNew []bool   // whether each is the first of its key
	}
	bp := make([]blockParts, len(blockKeys))
	each(x, len(blockKeys), func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			keys, q, n := blockKeys[b], &bp[b], len(blockKeys[b])
			q.part, q.at, q.off = make([]uint8, n), make([]uint16, n), make([]int, np+1)
			q.keys, q.count, q.num, q.isNew = make([]K, n), make([]int, n), make([]int, n), make([]bool, n)
			for l, k := range keys {
				q.part[l] = uint8(hash(k) & uint64(np-1))
				q.off[int(q.part[l])+1]++
			}
			for p := range np {
				q.off[p+1] += q.off[p]
			}
			next := append([]int(nil), q.off[:np]...)
			for l, k := range keys {
				i := next[q.part[l]]
				next[q.part[l]]++
				q.at[l], q.keys[i], q.count[i] = uint16(i), k, ix.blocks[b].count[l]
			}
		}
	})
	maps := make([]map[K]int, np)
	counts := make([][]int, np) // counts[p][j]: the count of partition p's key j
	each(x, np, func(p0, p1 int) {
		for p := p0; p < p1; p++ {
			// Sized for the partition's local keys, as if no key repeated
			// across blocks: growing the map instead cost more than its map
			// operations, and the size is at most the local keys phase 1
			// already made room for.
			size := 0
			for b := range bp {
				size += bp[b].off[p+1] - bp[b].off[p]
			}
			m := make(map[K]int, size)
			c := make([]int, 0, size)
			for b := range bp {
				q := &bp[b]
				for i := q.off[p]; i < q.off[p+1]; i++ {
					j, ok := m[q.keys[i]]
					if !ok {
						j = len(c)
						m[q.keys[i]] = j
						c = append(c, 0)
						q.isNew[i] = true
					}
					c[j] += q.count[i]
					q.num[i] = j
				}
			}
			maps[p], counts[p] = m, c
		}
	})
	base := make([]int, len(bp)+1) // base[b]: the keys new in blocks before b
	each(x, len(bp), func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			for _, isNew := range bp[b].isNew {
				if isNew {
					base[b+1]++
				}
			}
		}
	})
	for b := range bp {
		base[b+1] += base[b]
	}
	d := base[len(bp)]
	ix.keys, ix.first, ix.count = make([]K, d), make([]int, d), make([]int, d)
	global := make([][]int, np)
	for p := range global {
		global[p] = make([]int, len(counts[p]))
	}
	each(x, len(bp), func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			q, bi, g := &bp[b], &ix.blocks[b], base[b]
			for l, i := range q.at { // in local order: first-appearance order
				if q.isNew[i] {
					p, j := q.part[l], q.num[i]
					global[p][j] = g
					ix.keys[g], ix.first[g], ix.count[g] = q.keys[i], bi.first[l], counts[p][j]
					g++
				}
			}
		}
	})
	each(x, len(bp), func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			q, bi := &bp[b], &ix.blocks[b]
			bi.group = make([]int, len(q.at))
			for l, i := range q.at {
				bi.group[l] = global[q.part[l]][q.num[i]]
			}
		}
	})
	ix.table = keyLookup[K]{maps: maps, global: global, hash: hash}
}
