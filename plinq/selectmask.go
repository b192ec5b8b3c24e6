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
// and a count would store and reload them around every call.

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
	var f [8]bool // f[k]: pred(e[k]); read as the bytes of one word
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
			m[i/64] |= gather8(*(*uint64)(unsafe.Pointer(&f))) << (i % 64)
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

// gather8 returns the byte whose bit k is the low bit of byte k of x, every
// byte of x 0 or 1: the multiplication moves byte k's bit to bit 56+k, and
// no two partial products meet in bits 56 to 63 or carry into them.
func gather8(x uint64) uint64 { return x * 0x0102040810204080 >> 56 }
