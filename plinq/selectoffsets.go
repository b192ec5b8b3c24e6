package plinq

// selectOffsets returns buf, grown to hold len(b) offsets if it must, and
// the offsets in b of the elements pred keeps (all of them if pred is nil),
// in order, in buf. The loop writes every offset and keeps those pred
// selects, with no branch on pred's result, which a processor cannot
// predict for a random selection.
func selectOffsets[T any](buf []int32, b []T, pred func(T) bool) ([]int32, []int32) {
	if cap(buf) < len(b) {
		buf = make([]int32, max(len(b), batchLen))
	}
	sel, n := buf[:len(b)], 0
	if pred == nil {
		for i := range sel {
			sel[i] = int32(i)
		}
		return buf, sel
	}
	for i := range b {
		sel[n] = int32(i)
		if pred(b[i]) {
			n++
		}
	}
	return buf, sel[:n]
}
