package stealrange

// Positions.
//
// The protocol works on uint64 positions rather than on ints: toPos flips the
// sign bit, which maps every int (32 or 64 bits wide) monotonically into
// [0, 2^64). In position space no computation the protocol does can overflow:
// ranges are half-open, so the largest position that is ever an item is
// 2^64-2, and the owner never publishes a low above its range's end.

const signBit = 1 << 63

// toPos maps an int to its position; toPos(a) < toPos(b) iff a < b.
func toPos(i int) uint64 { return uint64(int64(i)) ^ signBit }

// fromPos is the inverse of toPos for every position toPos can return.
func fromPos(p uint64) int { return int(int64(p ^ signBit)) }

// span is one steal range, [mid, end) in position space. A span is immutable
// while installed: every change to a Range's steal range installs a fresh
// span with CompareAndSwap or Store, so pointer identity says which version a
// goroutine read. Fresh means not installed before in the current epoch of
// the Range that handed it out (see ownerCarve): within an epoch no address is
// installed twice, and an epoch ends only at Reuse, when no goroutine holds a
// span of it any more, so a stale thief's CAS can never succeed against a
// recycled address: there is no ABA. TrySteal's spans are allocated, and the
// garbage collector keeps each address unused while any pointer to it is
// held.
//
// end is where the Range's items end: positions at or above end have been
// stolen (or were never part of the range). mid == end means nothing is
// stealable; carve returns such a span only when nothing at all remains.
type span struct {
	mid uint64 // first stealable position
	end uint64 // one past the last position the Range still holds
}

// carve returns the steal range for the remaining positions [l, e), l <= e: the
// top quarter of them, rounded up, so that a non-empty remainder always yields
// a non-empty steal range and an empty one yields the empty span (e, e).
//
// Rounding matters. mid = e - (e-l)/4 rounds the quarter down, which for fewer
// than four remaining items leaves an empty steal range above items the owner
// still has to take, and lets thieves chase an empty span forever. The count
// is computed as n/4 + (n%4+3)/4, which is ceil(n/4) without forming n+3.
func carve(l, e uint64) *span {
	return &span{mid: carveMid(l, e), end: e}
}

// carveMid is carve(l, e).mid, without allocating.
func carveMid(l, e uint64) uint64 {
	n := e - l
	return e - (n/4 + (n%4+3)/4)
}
