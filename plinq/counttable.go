package plinq

import "math/bits"

// A countTable counts keys by their hashes, for one partition of a
// partCounter: open addressing with linear probing, starting at the slot
// given by the hash's high bits (the low bits chose the partition, and are
// the same for every key of the table). A slot holds its key and count
// side by side, so that a probe reads one cache line; it is empty while
// its count is 0, since a key is counted at least once. The table is at
// most 3/4 full. It is one goroutine's at a time.
type countTable[K comparable] struct {
	slots []countSlot[K]
	shift uint // 64 - log2(len(slots))
	n     int  // the keys held
}

// A countSlot is a key and its count.
type countSlot[K comparable] struct {
	k K
	c int
}

// minCountTable is the fewest slots of a countTable, a power of two.
const minCountTable = 64

// add adds c to the count of k, whose hash is h; hash is the function
// that gave h, to place the keys again if the table grows. O(1) amortized.
func (t *countTable[K]) add(h uint64, k K, c int, hash func(K) uint64) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow(hash)
	}
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.c == 0 {
			s.k, s.c = k, c
			t.n++
			return
		}
		if s.k == k {
			s.c += c
			return
		}
	}
}

// grow doubles the slots (or makes the first ones) and places the keys
// again.
func (t *countTable[K]) grow(hash func(K) uint64) {
	old := t.slots
	size := max(minCountTable, 2*len(old))
	*t = countTable[K]{slots: make([]countSlot[K], size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
	for _, s := range old {
		if s.c != 0 {
			t.add(hash(s.k), s.k, s.c, hash)
		}
	}
}

// merge adds the counts of u to t.
func (t *countTable[K]) merge(u *countTable[K], hash func(K) uint64) {
	for _, s := range u.slots {
		if s.c != 0 {
			t.add(hash(s.k), s.k, s.c, hash)
		}
	}
}
