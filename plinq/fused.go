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

// An intShape tells how to read the bits of an integer key K (see keyBits)
// without a call: the size of K comes from its shape, which the compiler
// knows in each instantiation, and whether it is signed is read once per
// run.
type intShape struct{ signed bool }

// bitsOfKey returns the bits of k, an integer kind, as keyBits does.
func bitsOfKey[K comparable](k K, sh intShape) uint64 {
	p := unsafe.Pointer(&k)
	switch unsafe.Sizeof(k) {
	case 1:
		if sh.signed {
			return uint64(*(*int8)(p))
		}
		return uint64(*(*uint8)(p))
	case 2:
		if sh.signed {
			return uint64(*(*int16)(p))
		}
		return uint64(*(*uint16)(p))
	case 4:
		if sh.signed {
			return uint64(*(*int32)(p))
		}
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// shapeOf returns the intShape of K and true if K is an integer kind.
func shapeOf[K comparable]() (intShape, bool) {
	switch reflect.TypeFor[K]().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intShape{signed: true}, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return intShape{}, true
	}
	return intShape{}, false
}
