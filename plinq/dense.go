package plinq

// A denseIndex numbers integer keys (by their bits, see keyBits) with an
// array: slot i holds the number of the key whose bits are base+i, or -1.
// It is one worker's: only the goroutine running the worker touches it.
//
// It starts empty, takes the first key's bits as base, and widens (to at
// least double its length) to take a key outside its slots, towards that
// key, as long as the keys from the least to the greatest span at most
// denseSpan slots; a key it cannot take ends it, and its owner numbers keys with a map from then on. Arithmetic on
// bits wraps around, so that slots [base, base+len) are a window of the
// keys' type whether it is signed or not. This is what columnar engines do
// for integer keys of small range: the slot of a key costs a subtraction
// and a comparison, where a map costs a hash and a probe.
type denseIndex struct {
	base   uint64
	slots  []int32
	lo, hi uint64 // the slots of the least and the greatest key held (modulo 2^64, from base)
	on     bool   // numbering keys; false once a key did not fit
}

// denseSpan is the most slots a denseIndex or a denseCount may have: 256
// KiB of a denseIndex's, which stays in a core's L2 cache. At most 1<<16:
// the keys a denseCount holds are numbered in 16 bits by the merge. A
// variable so that tests can shrink it.
var denseSpan = 1 << 16

// startDense returns a denseIndex that numbers keys if bits are known (K is
// an integer kind), and one that is off otherwise.
func startDense(known bool) denseIndex { return denseIndex{on: known} }

// find returns the number of the key whose bits are u, or -1 if it has
// none or the index is off.
func (d *denseIndex) find(u uint64) int32 {
	if off := u - d.base; off < uint64(len(d.slots)) {
		return d.slots[off]
	}
	return -1
}

// set numbers the key whose bits are u with i, widening the slots if u is
// outside them, and reports whether it could: if u does not fit within
// denseSpan slots, set turns the index off (for good) and returns false.
// Setting on an index that is off returns false.
func (d *denseIndex) set(u uint64, i int32) bool {
	if !d.on {
		return false
	}
	if len(d.slots) == 0 {
		d.base, d.slots = u, fill(make([]int32, min(16, denseSpan)))
	}
	if u-d.base >= uint64(len(d.slots)) && !d.widen(u) {
		d.on, d.slots = false, nil
		return false
	}
	off := u - d.base
	d.slots[off] = i
	d.lo, d.hi = min(d.lo, off), max(d.hi, off)
	return true
}

// widen makes room for u, outside the slots, and reports whether the keys
// with u fit within denseSpan slots. The window must hold the keys from
// the least to the greatest, so it is measured from them, not from the
// slots: the room the slots keep beyond them is only slack, which widen
// moves to the side it grows on (keeping it would turn keys away that fit).
func (d *denseIndex) widen(u uint64) bool {
	lo, hi := d.base+d.lo, d.base+d.hi // the least and the greatest key held
	base, size, ok := window(lo, hi, u, uint64(len(d.slots)))
	if !ok {
		return false
	}
	slots := fill(make([]int32, size))
	copy(slots[lo-base:], d.slots[d.lo:d.hi+1])
	d.base, d.slots = base, slots
	d.lo, d.hi = lo-base, hi-base
	return true
}

// window returns the slots [base, base+size) of a window of cur slots
// widened for u, outside it, and the keys held from lo to hi: to at least
// double its length, towards u, and at most denseSpan; ok is false if lo,
// hi and u do not fit within denseSpan slots.
func window(lo, hi, u, cur uint64) (base, size uint64, ok bool) {
	limit := uint64(denseSpan)
	up := u - lo   // u is up slots above lo (wrapping around if u is below)
	down := hi - u // u is down slots below hi
	switch {
	case up < limit && up <= down:
		return lo, min(limit, max(up+1, 2*cur)), true
	case down < limit:
		size = min(limit, max(down+1, 2*cur))
		return hi - (size - 1), size, true
	}
	return 0, 0, false
}

// clear forgets the numbers of the keys whose bits are us, all of them in
// the slots, keeping the slots (and the window) for the next keys.
func (d *denseIndex) clear(us []uint64) {
	for _, u := range us {
		d.slots[u-d.base] = -1
	}
}

// fill sets every slot of s to -1 and returns s.
func fill(s []int32) []int32 {
	for i := range s {
		s[i] = -1
	}
	return s
}
