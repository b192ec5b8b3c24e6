package plinq

import "unsafe"

// countBy is CountBy's run: each worker counts the keys of the blocks it
// takes into a counter of its own, and the counters are added up on the
// calling goroutine (a map operation per distinct key per worker, reusing
// the largest map). A slice, or a Where over one, runs as one loop that
// calls the predicate and the key per element (sliceElems); other flows
// count the batches their runners hand on.
func countBy[T any, K comparable](x *exec, f flow[T], key func(T) K) map[K]int {
	sh, isInt := shapeOf[K]()
	elems, pred, fused := f.sliceElems()
	type state struct {
		counter[T, K]
		run func(lo, hi int) bool
	}
	var states []*state
	blockChunks(x, f.n,
		func(w *worker) *state {
			s := &state{counter: counter[T, K]{key: key, pred: pred, sh: sh, on: isInt}}
			if !isInt {
				s.m = make(map[K]int)
			}
			if fused {
				s.run = func(lo, hi int) bool {
					for lo < hi {
						if w.stopped() {
							return false
						}
						e := lo + min(batchLen, hi-lo)
						s.count(elems[lo:e])
						lo = e
					}
					return true
				}
			} else {
				s.run = f.open(w, func(b []T) bool { s.count(b); return true })
			}
			return s
		},
		func(s *state, lo, hi int) bool { s.run(lo, hi); return true },
		func(s *state) { states = append(states, s) })
	big := -1 // the state with the largest map, which becomes the total
	for i, s := range states {
		if s.m != nil && (big < 0 || len(s.m) > len(states[big].m)) {
			big = i
		}
	}
	var total map[K]int
	if big >= 0 {
		total = states[big].m
	} else {
		total = make(map[K]int)
	}
	for i, s := range states {
		if i != big {
			for k, c := range s.m {
				total[k] += c
			}
		}
		for off, c := range s.n {
			if c != 0 {
				total[keyOfBits[K](s.base+uint64(off), sh)] += c
			}
		}
	}
	return total
}

// A counter is one worker's counts of keys: while the keys are integers of
// small range, n[i] counts the key whose bits (bitsOfKey) are base+i, in a
// window placed and widened as a denseIndex's is (see window) while the
// keys counted span at most denseSpan slots; a map counts the keys from
// then on (or from the start if K is not an integer kind). Counts add up
// in any order, so the window needs no blocks. Only the goroutine running
// the worker touches it.
type counter[T any, K comparable] struct {
	key    func(T) K
	pred   func(T) bool // nil: every element
	sh     intShape
	base   uint64
	n      []int
	lo, hi uint64 // the slots of the least and the greatest key counted
	on     bool   // counting in the window; false once a key did not fit
	m      map[K]int
	sel    []int32 // the offsets in a batch of the elements pred keeps
}

// count counts the keys of the elements of b that pred keeps, selected
// first without a branch (see selectOffsets).
func (c *counter[T, K]) count(b []T) {
	var sel []int32
	c.sel, sel = selectOffsets(c.sel, b, c.pred)
	for _, i := range sel {
		k := c.key(b[i])
		u := bitsOfKey(k, c.sh) // unused unless K is an integer kind (n is empty otherwise)
		if off := u - c.base; off < uint64(len(c.n)) {
			c.n[off]++
		} else {
			c.slow(k, u)
		}
	}
}

// slow counts k, whose bits u are outside the window: it widens the window
// for u, or turns it off and counts k in the map.
func (c *counter[T, K]) slow(k K, u uint64) {
	if !c.on {
		c.m[k]++
		return
	}
	if len(c.n) == 0 {
		size := min(16, denseSpan)
		c.base, c.n = u-uint64(size/2), make([]int, size)
	} else if !c.widen(u) { // the window's counts move to the map, which counts from now on
		c.m = make(map[K]int, 2*len(c.n))
		for off, n := range c.n {
			if n != 0 {
				c.m[keyOfBits[K](c.base+uint64(off), c.sh)] = n
			}
		}
		c.on, c.n, c.base = false, nil, 0
		c.m[k]++
		return
	}
	c.n[u-c.base]++
}

// widen makes room for u, outside the window, and reports whether the keys
// counted with u fit within denseSpan slots. The window is measured from
// the least and the greatest key counted, as denseIndex.widen measures it.
func (c *counter[T, K]) widen(u uint64) bool {
	lo, hi := 0, len(c.n)-1 // the slots of the least and the greatest key counted
	for c.n[lo] == 0 {
		lo++
	}
	for c.n[hi] == 0 {
		hi--
	}
	base, size, ok := window(c.base+uint64(lo), c.base+uint64(hi), u, uint64(len(c.n)))
	if !ok {
		return false
	}
	n := make([]int, size)
	copy(n[c.base+uint64(lo)-base:], c.n[lo:hi+1])
	c.base, c.n = base, n
	return true
}

// keyOfBits returns the key of an integer kind whose bits are u: the
// inverse of bitsOfKey.
func keyOfBits[K comparable](u uint64, sh intShape) K {
	var k K
	p := unsafe.Pointer(&k)
	u ^= sh.flip
	switch unsafe.Sizeof(k) {
	case 1:
		*(*uint8)(p) = uint8(u)
	case 2:
		*(*uint16)(p) = uint16(u)
	case 4:
		*(*uint32)(p) = uint32(u)
	case 8:
		*(*uint64)(p) = u
	}
	return k
}
