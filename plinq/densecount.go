package plinq

// A denseCount is one worker's counts of the keys of the run of blocks it
// counts, for integer keys of small range: n[i] counts the run's elements
// whose key has the bits base+i, and touched holds the bits of the run's
// keys in the order the run met them (each when its count left 0). It is the
// array a hand-written loop counts into, placed at the keys' range and
// widened as a denseIndex is (see window) while the run's keys span at
// most denseSpan slots; a key it cannot take ends it, and its owner counts
// with a map from then on. Only the goroutine running the worker touches
// it.
type denseCount struct {
	base    uint64
	n       []int
	touched []uint64
	on      bool // false once a key did not fit
}

// take makes room for the key whose bits are u, outside the slots, and
// reports whether it could; if not, the caller must flush the run's
// counts and turn d off.
func (d *denseCount) take(u uint64) bool {
	if !d.on {
		return false
	}
	if len(d.touched) == 0 { // the run's first key: the window may move freely
		if len(d.n) == 0 {
			d.n = make([]int, min(16, denseSpan))
		}
		d.base = u - uint64(len(d.n)/2)
		return true
	}
	lo, hi := ^uint64(0), uint64(0) // the slots of the least and the greatest key counted
	for _, t := range d.touched {
		lo, hi = min(lo, t-d.base), max(hi, t-d.base)
	}
	base, size, ok := window(d.base+lo, d.base+hi, u, uint64(len(d.n)))
	if !ok {
		return false
	}
	n := make([]int, size)
	copy(n[d.base+lo-base:], d.n[lo:hi+1])
	d.base, d.n = base, n
	return true
}

// off turns d off for good; flush its counts first.
func (d *denseCount) off() { d.on, d.n, d.touched = false, nil, nil }
