package plinq

import (
	"reflect"
	"unsafe"
)

// Integer keys: the grouping operators number the keys of an integer kind
// (int, int8, ..., uint64, uintptr, and named types of those) by their
// value when their values fall in a small range, with an array in place of
// a map (see denseIndex). Whether K is an integer kind is decided once per
// run, by its reflect.Kind; the keys are then converted a batch at a time,
// by one call through a func value per batch, to uint64: sign-extended for
// the signed kinds, so that a range of small negative and positive keys
// stays small. The conversion is injective and == on keys is == on their
// bits, which is all the numbering needs.

// integer is every integer type of Go's.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// keyBits returns the function that writes the bits of keys to the same
// positions of bits (len(bits) >= len(keys)), or nil if K is not an integer
// kind.
func keyBits[K comparable]() func(keys []K, bits []uint64) {
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Int:
		return bitsOf[K, int]
	case reflect.Int8:
		return bitsOf[K, int8]
	case reflect.Int16:
		return bitsOf[K, int16]
	case reflect.Int32:
		return bitsOf[K, int32]
	case reflect.Int64:
		return bitsOf[K, int64]
	case reflect.Uint:
		return bitsOf[K, uint]
	case reflect.Uint8:
		return bitsOf[K, uint8]
	case reflect.Uint16:
		return bitsOf[K, uint16]
	case reflect.Uint32:
		return bitsOf[K, uint32]
	case reflect.Uint64:
		return bitsOf[K, uint64]
	case reflect.Uintptr:
		return bitsOf[K, uintptr]
	}
	return nil
}

// bitsOf is keyBits for a K whose underlying type is I: it reads the keys
// as I values, which have the same size and layout.
func bitsOf[K comparable, I integer](keys []K, bits []uint64) {
	if len(keys) == 0 {
		return
	}
	ints := unsafe.Slice((*I)(unsafe.Pointer(unsafe.SliceData(keys))), len(keys))
	bits = bits[:len(ints)]
	for i, v := range ints {
		bits[i] = uint64(v) // sign-extends a signed I
	}
}

// A keyBatch is a worker's buffers for the keys of a batch and their bits.
type keyBatch[T any, K comparable] struct {
	keys []K
	us   []uint64 // zero if bits is nil
}

// keysOf calls key on each element of b, in order, and returns the keys
// and, if bits is not nil, their bits (else zeros), valid until the next
// call.
func (s *keyBatch[T, K]) keysOf(b []T, key func(T) K, bits func([]K, []uint64)) ([]K, []uint64) {
	if len(b) > len(s.keys) {
		s.keys, s.us = make([]K, max(len(b), batchLen)), make([]uint64, max(len(b), batchLen))
	}
	keys, us := s.keys[:len(b)], s.us[:len(b)]
	for j, v := range b {
		keys[j] = key(v)
	}
	if bits != nil {
		bits(keys, us)
	}
	return keys, us
}
