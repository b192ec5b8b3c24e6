package workloads

import "math"

// 64-bit FNV-1a over the 8 little-endian bytes of each output word, as the library's
// workloads compute it, so that all checksums mean the same thing.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// checksumFloats returns the FNV-1a digest of math.Float64bits of each element of s, in order.
func checksumFloats(s []float64) uint64 {
	h := uint64(fnvOffset64)
	for _, v := range s {
		w := math.Float64bits(v)
		for range 8 {
			h ^= w & 0xff
			h *= fnvPrime64
			w >>= 8
		}
	}
	return h
}

// splitmix64 advances the splitmix64 generator from state and returns the new state and its
// output, as randomskew in the library does.
func splitmix64(state uint64) (next, z uint64) {
	next = state + 0x9e3779b97f4a7c15
	z = next
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return next, z ^ (z >> 31)
}
