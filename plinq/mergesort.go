package plinq

// Parallel stable merge sort, for sorts by compare functions.
//
// Runs of mergeLeaf elements are sorted in parallel (insertion sort of short
// runs, then merging within the run). Then each level merges pairs of
// adjacent runs into runs twice as long, from one buffer into the other. A
// level is cut into pieces of at most mergePiece output elements, whatever
// the number of runs left, so the last levels, with only a few long merges,
// are as parallel as the first: the piece [s, e) of a merge of A and B
// takes A[i0:i1] and B[s-i0:e-i1], where i = corank(k) is found by binary
// search (the merge path) as the number of A's elements among the first k
// of the merge. Ties take A's element first, in both the merge and the
// search, which keeps the sort stable.

var (
	mergeLeaf    = 1 << 14 // a power of two; 16K elements of a word each fit in a core's L2 cache with their scratch
	mergePiece   = 1 << 14 // a power of two
	insertionRun = 24
)

// mergeSort returns the elements of src, which it does not change, sorted
// stably by cmp.
func mergeSort[T any](x *exec, src []T, cmp func(a, b T) int) []T {
	n := len(src)
	a, b := make([]T, n), make([]T, n)
	each(x, (n+mergeLeaf-1)/mergeLeaf, func(l0, l1 int) {
		for l := l0; l < l1; l++ {
			lo, hi := l*mergeLeaf, min((l+1)*mergeLeaf, n)
			copy(a[lo:hi], src[lo:hi])
			sortRun(a[lo:hi], b[lo:hi], cmp)
		}
	})
	for width := mergeLeaf; width < n; width *= 2 {
		piece := min(mergePiece, 2*width) // divides 2*width: no piece spans two merges
		each(x, (n+piece-1)/piece, func(p0, p1 int) {
			for p := p0; p < p1; p++ {
				mergePieceOf(a, b, p*piece, min((p+1)*piece, n), width, cmp)
			}
		})
		a, b = b, a
	}
	return a
}

// mergePieceOf writes dst[s:e], a piece of the merge of the two runs of
// width elements of src that the piece falls in.
func mergePieceOf[T any](src, dst []T, s, e, width int, cmp func(a, b T) int) {
	lo := s / (2 * width) * (2 * width)
	mid, hi := min(lo+width, len(src)), min(lo+2*width, len(src))
	a, b := src[lo:mid], src[mid:hi]
	i0, i1 := corank(s-lo, a, b, cmp), corank(e-lo, a, b, cmp)
	merge(dst[s:e], a[i0:i1], b[s-lo-i0:e-lo-i1], cmp)
}

// corank returns how many of the first k elements of the stable merge of a
// and b come from a.
func corank[T any](k int, a, b []T, cmp func(a, b T) int) int {
	lo, hi := max(0, k-len(b)), min(k, len(a))
	for lo < hi {
		i := int(uint(lo+hi) >> 1)
		// a[i] is among the first k if it precedes b[k-i-1], which it does
		// when a[i] <= b[k-i-1] (ties take a first).
		if cmp(a[i], b[k-i-1]) <= 0 {
			lo = i + 1
		} else {
			hi = i
		}
	}
	return lo
}

// merge writes the stable merge of a and b to dst, len(a)+len(b) long.
// The loop has no branch on the comparison (the compiler makes conditional
// moves of v and t): on random data that branch would be mispredicted every
// other element.
func merge[T any](dst, a, b []T, cmp func(a, b T) int) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		v, t := a[i], 0
		if cmp(b[j], v) < 0 {
			v, t = b[j], 1
		}
		dst[k] = v
		i += 1 - t
		j += t
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// sortRun sorts s stably in place, with tmp, as long, for scratch.
func sortRun[T any](s, tmp []T, cmp func(a, b T) int) {
	n := len(s)
	for lo := 0; lo < n; lo += insertionRun {
		r := s[lo:min(lo+insertionRun, n)]
		for i := 1; i < len(r); i++ {
			for j := i; j > 0 && cmp(r[j-1], r[j]) > 0; j-- {
				r[j-1], r[j] = r[j], r[j-1]
			}
		}
	}
	src, dst := s, tmp
	for w := insertionRun; w < n; w *= 2 {
		for lo := 0; lo < n; lo += 2 * w {
			mid, hi := min(lo+w, n), min(lo+2*w, n)
			merge(dst[lo:hi], src[lo:mid], src[mid:hi], cmp)
		}
		src, dst = dst, src
	}
	if n > 0 && &src[0] != &s[0] {
		copy(s, src)
	}
}
