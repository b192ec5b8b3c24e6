package plinq

import "unsafe"

// Selection masks: the folding terminals (AggregateBy, CountBy) select the
// elements of a batch that a Where keeps as a bitmap, one bit per element,
// and then walk its set bits. The selection has no branch on the
// predicate's result, which a processor cannot predict for a random
// selection, and the selecting loop calls the predicate on eight elements
// in a row, each writing its result to a byte of its own on the stack, so
// that across each call it keeps only the eight elements' address and the
// predicate: Go's calls save no register, and a loop that kept an index
// and a count would store and reload them around every call. The eight
// bytes are read back one by one, each by a load of the size of the store
// that wrote it: a processor forwards a store's data to a load that it
// covers, but a wider load over several stores still in flight waits
// until they have retired and reached the cache, and holds up every
// instruction after it.

// selectMasks returns buf, grown to hold a bit per element of b if it must,
// and the words of it that hold them: bit j%64 of word j/64 is set if pred
// keeps b[j] (every element if pred is nil), and the bits past len(b) are
// clear. pred is called once per element, in order.
func selectMasks[T any](buf []uint64, b []T, pred func(T) bool) ([]uint64, []uint64) {
	nw := (len(b) + 63) / 64
	if cap(buf) < nw {
		buf = make([]uint64, max(nw, (batchLen+63)/64))
	}
	m := buf[:nw]
	if pred == nil {
		for w := range m {
			m[w] = ^uint64(0)
		}
	} else {
		clear(m)
		selectBits(m, b, pred)
	}
	if r := len(b) % 64; r != 0 {
		m[nw-1] &= 1<<r - 1
	}
	return buf, m
}

// selectBits sets the bits of m (clear, a bit per element of b) of the
// elements pred keeps. Apart from selectMasks to keep its loop's values
// few across the calls of pred: the eight elements' address is one
// pointer, which moves to the next eight only while they are all in b.
//
//go:noinline
func selectBits[T any](m []uint64, b []T, pred func(T) bool) {
	var f [8]bool // f[k]: pred(e[k])
	i := 0
	if len(b) >= 8 {
		e := (*[8]T)(b)
		for {
			f[0] = pred(e[0]) // one call a statement: no result is kept in a temporary
			f[1] = pred(e[1])
			f[2] = pred(e[2])
			f[3] = pred(e[3])
			f[4] = pred(e[4])
			f[5] = pred(e[5])
			f[6] = pred(e[6])
			f[7] = pred(e[7])
			// f's bytes, read one by one (see the top of the file), added
			// where their bits are disjoint: address arithmetic.
			u := (*[8]uint8)(unsafe.Pointer(&f))
			lo := uint64(u[0]) + 2*uint64(u[1]) + 4*uint64(u[2]) + 8*uint64(u[3])
			hi := uint64(u[4]) + 2*uint64(u[5]) + 4*uint64(u[6]) + 8*uint64(u[7])
			m[uint(i)/64] |= (lo + hi<<4) << (uint(i) % 64)
			if i += 8; i+8 > len(b) {
				break
			}
			e = (*[8]T)(unsafe.Add(unsafe.Pointer(e), unsafe.Sizeof(*e)))
		}
	}
	for ; i < len(b); i++ {
		if pred(b[i]) {
			m[i/64] |= 1 << (i % 64)
		}
	}
}
