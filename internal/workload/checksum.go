package workload

import "math"

// FNV-1a, 64-bit, as in hash/fnv; written out here so that Checksum neither allocates nor
// goes through an interface.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// fnvWord folds the 8 bytes of w, least significant first, into the FNV-1a state h.
func fnvWord(h, w uint64) uint64 {
	for range 8 {
		h ^= w & 0xff
		h *= fnvPrime64
		w >>= 8
	}
	return h
}

// checksumFloats returns the FNV-1a digest of math.Float64bits of each element of s, in order.
func checksumFloats(s []float64) uint64 {
	h := uint64(fnvOffset64)
	for _, v := range s {
		h = fnvWord(h, math.Float64bits(v))
	}
	return h
}

// checksumInts returns the FNV-1a digest of each element of s, as a 64-bit two's-complement
// word, in order.
func checksumInts(s []int64) uint64 {
	h := uint64(fnvOffset64)
	for _, v := range s {
		h = fnvWord(h, uint64(v))
	}
	return h
}
