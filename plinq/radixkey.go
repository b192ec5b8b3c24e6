package plinq

import (
	"cmp"
	"math"
	"reflect"
	"unsafe"
)

// radixBits returns a function mapping keys of type K to uint64 so that
// a < b as cmp.Compare orders them exactly when bits(a) < bits(b), and
// equal keys to equal bits; nil if K is a string type, which has no such
// image.
//
// A type parameter constrained by cmp.Ordered cannot be converted to an
// integer, since the constraint admits strings; so the key's bits are read
// through unsafe.Pointer as the integer or float type of K's kind and size,
// which is exactly K's representation (K may be a named type such as
// time.Duration).
func radixBits[K cmp.Ordered]() func(K) uint64 {
	const signBit = 1 << 63
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Int8:
		return func(k K) uint64 { return uint64(int64(*(*int8)(unsafe.Pointer(&k)))) ^ signBit }
	case reflect.Int16:
		return func(k K) uint64 { return uint64(int64(*(*int16)(unsafe.Pointer(&k)))) ^ signBit }
	case reflect.Int32:
		return func(k K) uint64 { return uint64(int64(*(*int32)(unsafe.Pointer(&k)))) ^ signBit }
	case reflect.Int64:
		return func(k K) uint64 { return uint64(*(*int64)(unsafe.Pointer(&k))) ^ signBit }
	case reflect.Int:
		return func(k K) uint64 { return uint64(int64(*(*int)(unsafe.Pointer(&k)))) ^ signBit }
	case reflect.Uint8:
		return func(k K) uint64 { return uint64(*(*uint8)(unsafe.Pointer(&k))) }
	case reflect.Uint16:
		return func(k K) uint64 { return uint64(*(*uint16)(unsafe.Pointer(&k))) }
	case reflect.Uint32:
		return func(k K) uint64 { return uint64(*(*uint32)(unsafe.Pointer(&k))) }
	case reflect.Uint64:
		return func(k K) uint64 { return *(*uint64)(unsafe.Pointer(&k)) }
	case reflect.Uint:
		return func(k K) uint64 { return uint64(*(*uint)(unsafe.Pointer(&k))) }
	case reflect.Uintptr:
		return func(k K) uint64 { return uint64(*(*uintptr)(unsafe.Pointer(&k))) }
	case reflect.Float32:
		return func(k K) uint64 { return floatBits(float64(*(*float32)(unsafe.Pointer(&k)))) }
	case reflect.Float64:
		return func(k K) uint64 { return floatBits(*(*float64)(unsafe.Pointer(&k))) }
	}
	return nil
}

// floatBits maps floats to uint64 in cmp.Compare's order: NaNs (all equal)
// below -Inf, -0 equal to +0. Flipping the sign bit of a positive float and
// every bit of a negative one turns IEEE order into unsigned integer order.
func floatBits(f float64) uint64 {
	switch {
	case f != f:
		return 0 // below -Inf's image, 0x000fffffffffffff
	case f == 0:
		f = 0 // -0 and +0 compare equal
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}
