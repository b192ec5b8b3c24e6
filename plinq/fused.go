package plinq

import (
	"reflect"
	"unsafe"
)

// Fused terminals: a terminal that calls user functions per element (the
// grouping folds) runs a Where over a slice, or the slice itself, as one
// loop that calls the predicate and its own functions per element, with no
// batch of elements handed from stage to stage (see sliceElems).

// A filtered is a Where's predicate over the elements of a slice.
type filtered[T any] struct {
	in   []T
	pred func(T) bool
}

// sliceElems reports whether f is a slice, or a Where over a slice: then
// the elements that indices [lo, hi) yield are those of s[lo:hi] for which
// pred (nil: none) reports true, and a terminal may run them as one loop
// over s, calling pred per element, checking w.stopped every batchLen
// indices as a runner does.
func (f flow[T]) sliceElems() (s []T, pred func(T) bool, ok bool) {
	switch {
	case f.isSlice:
		return f.slice, nil, true
	case f.filter != nil:
		return f.filter.in, f.filter.pred, true
	}
	return nil, nil, false
}

// An intShape tells how to read the bits of a key K without a call: the
// size of K comes from its shape, which the compiler knows in each
// instantiation, and whether it is signed is read once per run, as the
// mask that flips its sign bit. The bits of a key are its value, zero
// extended, with the sign bit flipped if K is signed: an order-preserving
// bijection onto [0, 2^size), so that a range of small negative and
// positive keys stays a small range of bits, as keyBits' sign extension
// keeps it (the two are not the same bits; a run uses one of them).
type intShape struct{ flip uint64 }

// bitsOfKey returns the bits of k (see intShape), for K of any kind whose
// size is 1, 2, 4 or 8 bytes, and 0 for other sizes: meaningful only for
// integer kinds, and cheap to compute for any, so that a loop need not
// test the kind.
func bitsOfKey[K comparable](k K, sh intShape) uint64 {
	p := unsafe.Pointer(&k)
	switch unsafe.Sizeof(k) {
	case 1:
		return uint64(*(*uint8)(p)) ^ sh.flip
	case 2:
		return uint64(*(*uint16)(p)) ^ sh.flip
	case 4:
		return uint64(*(*uint32)(p)) ^ sh.flip
	case 8:
		return *(*uint64)(p) ^ sh.flip
	}
	return 0
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

// shapeOf returns the intShape of K and true if K is an integer kind.
func shapeOf[K comparable]() (intShape, bool) {
	t := reflect.TypeFor[K]()
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intShape{flip: 1 << (8*t.Size() - 1)}, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return intShape{}, true
	}
	return intShape{}, false
}
