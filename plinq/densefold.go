package plinq

// A denseFold is one worker's accumulators of the block it folds, for
// integer keys of small range: slots[i].acc is the fold of the block's
// elements whose key has the bits base+i, if slots[i].stamp is the block's
// stamp, and keys[i] is that key. A slot holds its stamp beside its value,
// so that the check and the fold of an element read one slice. It is the dense array a hand-written loop folds
// into, placed at the keys' range as a denseIndex is, and widened as one
// is (see denseIndex.widen) while the block's keys span at most denseSpan
// slots; a key it cannot take ends it, and its owner folds by keyTable
// from then on. Only the goroutine running the worker touches it.
type denseFold[K comparable, A any] struct {
	base    uint64
	slots   []foldSlot[A]
	keys    []K
	touched []uint64 // the bits of the block's keys, in the order it met them
	lo, hi  uint64   // the slots of the least and the greatest of them
	on      bool     // false once a key did not fit
}

// A foldSlot is a denseFold's value of one key.
type foldSlot[A any] struct {
	stamp int32 // the stamp of the block whose element the slot last folded; 0: none
	acc   A
}

// start makes room for the key k, with bits u, that the block stamped st
// meets for the first time, with identity as its value, and reports
// whether it could; if not, it is off for good, and the caller must flush
// it first (the block's values are still in it).
func (d *denseFold[K, A]) start(k K, u uint64, st int32, identity A) bool {
	if !d.on {
		return false
	}
	if len(d.touched) == 0 { // the block's first key: the window may move freely
		if u-d.base >= uint64(len(d.slots)) {
			size := max(len(d.slots), min(16, denseSpan))
			d.base = u - uint64(size/2)
			d.slots, d.keys = make([]foldSlot[A], size), make([]K, size)
		}
		d.lo, d.hi = u-d.base, u-d.base
	} else if u-d.base >= uint64(len(d.slots)) && !d.widen(u) {
		return false
	}
	off := u - d.base
	d.slots[off], d.keys[off] = foldSlot[A]{st, identity}, k
	d.lo, d.hi = min(d.lo, off), max(d.hi, off)
	d.touched = append(d.touched, u)
	return true
}

// widen makes room for u as denseIndex.widen does, and reports whether the
// block's keys with u fit within denseSpan slots.
func (d *denseFold[K, A]) widen(u uint64) bool {
	base, size, ok := window(d.base+d.lo, d.base+d.hi, u, uint64(len(d.slots)))
	if !ok {
		return false
	}
	slots, keys := make([]foldSlot[A], size), make([]K, size)
	from, to := d.lo, d.hi+1
	at := d.base + d.lo - base
	copy(slots[at:], d.slots[from:to])
	copy(keys[at:], d.keys[from:to])
	d.lo, d.hi = d.base+d.lo-base, d.base+d.hi-base
	d.base, d.slots, d.keys = base, slots, keys
	return true
}

// flush hands the value of each key of the block to put, in the order the
// block met them, and empties the block.
func (d *denseFold[K, A]) flush(put func(k K, u uint64, v A)) {
	var zero A
	for _, u := range d.touched {
		off := u - d.base
		put(d.keys[off], u, d.slots[off].acc)
		d.slots[off].acc = zero // holds no pointer of the user's past the block
	}
	d.touched = d.touched[:0]
}

// off turns d off for good; flush it first.
func (d *denseFold[K, A]) off() {
	d.on, d.slots, d.keys, d.touched = false, nil, nil, nil
}
