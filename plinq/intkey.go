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
	if ops := intOps[K](); ops != nil {
		return ops.bits
	}
	return nil
}

// intKeyOps are the conversions of an integer kind K.
type intKeyOps[K comparable] struct {
	bits func(keys []K, bits []uint64) // as keyBits
	one  func(k K) uint64              // the bits of one key
}

// intOps returns the conversions of K, or nil if K is not an integer kind.
func intOps[K comparable]() *intKeyOps[K] {
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Int:
		return opsOf[K, int]()
	case reflect.Int8:
		return opsOf[K, int8]()
	case reflect.Int16:
		return opsOf[K, int16]()
	case reflect.Int32:
		return opsOf[K, int32]()
	case reflect.Int64:
		return opsOf[K, int64]()
	case reflect.Uint:
		return opsOf[K, uint]()
	case reflect.Uint8:
		return opsOf[K, uint8]()
	case reflect.Uint16:
		return opsOf[K, uint16]()
	case reflect.Uint32:
		return opsOf[K, uint32]()
	case reflect.Uint64:
		return opsOf[K, uint64]()
	case reflect.Uintptr:
		return opsOf[K, uintptr]()
	}
	return nil
}

// opsOf is intOps for a K whose underlying type is I: it reads keys as I
// values, which have the same size and layout.
func opsOf[K comparable, I integer]() *intKeyOps[K] {
	return &intKeyOps[K]{bits: bitsOf[K, I], one: func(k K) uint64 { return uint64(*(*I)(unsafe.Pointer(&k))) }}
}

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
