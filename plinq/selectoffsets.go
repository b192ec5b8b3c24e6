package plinq

import "unsafe"

// selectOffsets returns buf, grown to hold len(b) offsets if it must, and
// the offsets in b of the elements pred keeps (all of them if pred is nil),
// in order, in buf. The loop writes every offset and keeps those pred
// selects, with no branch on pred's result, which a processor cannot
// predict for a random selection.
func selectOffsets[T any](buf []int32, b []T, pred func(T) bool) ([]int32, []int32) {
	if cap(buf) < len(b) {
		buf = make([]int32, max(len(b), batchLen))
	}
	sel := buf[:len(b)]
	if pred == nil {
		for i := range sel {
			sel[i] = int32(i)
		}
		return buf, sel
	}
	return buf, sel[:selectInto(sel, b, pred)]
}

// selectInto writes to sel the offsets in b of the elements pred keeps, in
// order, and returns how many; len(sel) == len(b). Apart from selectOffsets,
// and writing without a bounds check, so that its loop keeps few values
// across the call of pred: Go's calls save no register, and each value
// kept is stored and loaded again. The write stays within sel: when it
// writes offset i, n <= i.
//
//go:noinline
func selectInto[T any](sel []int32, b []T, pred func(T) bool) int {
	at, n := unsafe.Pointer(unsafe.SliceData(sel)), 0
	for i := range b {
		*(*int32)(unsafe.Add(at, 4*n)) = int32(i)
		if pred(b[i]) {
			n++
		}
	}
	return n
}

// elemAt returns &b[i] for an offset i that selectOffsets returned for b,
// without the bounds check a loop over the offsets would repeat per
// element, which costs a value kept across the user's calls.
func elemAt[T any](b []T, i int32) *T {
	return (*T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), uintptr(i)*unsafe.Sizeof(*new(T))))
}
