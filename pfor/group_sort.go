package pfor

import (
	"cmp"
	"slices"
)

// Parallel merge sort on the pool.
//
// The slice is split in halves recursively with Both down to leaves of
// about sortLeaf elements, each sorted sequentially; then each pair of
// halves is merged, the merge itself split with Both: the median of the
// longer run, and its rank in the other found by binary search, cut a merge
// into two independent ones (Cormen et al., "Introduction to Algorithms",
// 3rd ed., 27.3). Levels alternate between x and one scratch slice of the
// same length, so nothing is copied back except at odd leaves. Ties take
// the left run's element first, in the merges and in the rank searches,
// which keeps the sort stable whenever the leaves are sorted stably.

const (
	sortLeafMin = 1 << 13 // smallest leaf; below 2*sortLeafMin a sort runs sequentially
	sortLeafMax = 1 << 16 // largest leaf: 8 to 16 merge levels above it for 10M elements
	mergeGrain  = 1 << 14 // merges of up to this many elements run sequentially
)

// sortOps are the element-specific parts of the sort: sequential sorting
// of a leaf (with scratch space), sequential merging, and the two rank
// searches. Each is called once per leaf or per merge piece, so calling
// them through func values costs nothing measurable; their loops inside are
// specialized for cmp.Ordered or call the user's cmp.
type sortOps[E any] struct {
	leaf  func(s, scratch []E)
	merge func(dst, a, b []E)
	below func(s []E, x E) int // number of elements of s that sort before x
	upTo  func(s []E, x E) int // number of elements of s that do not sort after x

	// sortRun[E] and mergeRun[E] as values, made once per sort: inside
	// generic code each use of such a value allocates a closure.
	sortRun  func(*Worker, sortJob[E]) struct{}
	mergeRun func(*Worker, mergeJob[E]) struct{}
}

// Sort sorts x in ascending order, in parallel on the pool, in the order
// slices.Sort gives (NaNs first). Sort is not stable, which matters only
// for floating-point elements that compare equal but differ, like -0 and
// +0. It takes O(n log n) time, divided among the pool's workers, and
// allocates one scratch slice as long as x (none for a short x, which it
// sorts on the calling goroutine) and a few small objects, however long x
// is. Sort may be called from anywhere, tasks included.
func Sort[S ~[]E, E cmp.Ordered](x S) {
	// A merge sort whose leaves use slices.Sort. BenchmarkSort here (1M
	// elements) and benchmarks/casestudy's BenchmarkSort (10M) compare it
	// with slices.Sort.
	parallelSort("Sort", x, &sortOps[E]{
		leaf:  func(s, _ []E) { slices.Sort(s) },
		merge: mergeOrdered[E],
		below: func(s []E, x E) int { return searchOrdered(s, x, false) },
		upTo:  func(s []E, x E) int { return searchOrdered(s, x, true) },
	}, func(s []E) { slices.Sort(s) })
}

// SortStableFunc sorts x in ascending order as determined by cmp, keeping
// the original order of equal elements, in parallel on the pool. cmp
// must be a strict weak ordering as for slices.SortStableFunc: cmp(a, b)
// negative for a < b, positive for a > b, zero for equal; it is called
// concurrently from several goroutines. If cmp panics, SortStableFunc
// re-raises the panic as a *PanicError once every worker has stopped, and
// the contents of x are unspecified (a merge under way may have lost or
// duplicated elements). It allocates as Sort does: one scratch slice as
// long as x, and a few small objects. SortStableFunc panics if cmp is nil.
func SortStableFunc[S ~[]E, E any](x S, cmp func(a, b E) int) {
	checkFunc("SortStableFunc", "cmp", cmp == nil)
	ops := &sortOps[E]{
		leaf:  func(s, scratch []E) { stableLeaf(s, scratch, cmp) },
		merge: func(dst, a, b []E) { mergeFunc(dst, a, b, cmp) },
		below: func(s []E, x E) int { return searchFunc(s, x, 0, cmp) },
		upTo:  func(s []E, x E) int { return searchFunc(s, x, 1, cmp) },
	}
	parallelSort("SortStableFunc", x, ops, func(s []E) { slices.SortStableFunc(s, cmp) })
}

// parallelSort runs the merge sort on the pool for the entry point
// named call, or small on the caller's goroutine on inputs too short to
// split; a panic in either reaches the caller as a *PanicError naming call.
func parallelSort[E any](call string, x []E, ops *sortOps[E], small func([]E)) {
	if len(x) < 2*sortLeafMin {
		guard(call, func() { small(x) })
		return
	}
	scratch := make([]E, len(x))
	leaf := min(max(len(x)/64, sortLeafMin), sortLeafMax)
	ops.sortRun, ops.mergeRun = sortRun[E], mergeRun[E]
	thePool.run(call, func(w *Worker) {
		sortRun(w, sortJob[E]{ops: ops, leaf: leaf, src: x, scratch: scratch})
	})
}

// A sortJob sorts src, leaving the result in src, or in scratch if toScratch.
type sortJob[E any] struct {
	ops          *sortOps[E]
	leaf         int
	src, scratch []E
	toScratch    bool
}

func sortRun[E any](w *Worker, j sortJob[E]) struct{} {
	if len(j.src) <= j.leaf {
		j.ops.leaf(j.src, j.scratch)
		if j.toScratch {
			copy(j.scratch, j.src)
		}
		return struct{}{}
	}
	m := len(j.src) / 2
	lo, hi := j, j
	lo.src, lo.scratch, lo.toScratch = j.src[:m], j.scratch[:m], !j.toScratch
	hi.src, hi.scratch, hi.toScratch = j.src[m:], j.scratch[m:], !j.toScratch
	Both(w, j.ops.sortRun, lo, hi)
	// The halves are sorted where this level does not want the result.
	from, to := j.scratch, j.src
	if j.toScratch {
		from, to = j.src, j.scratch
	}
	j.ops.mergeRun(w, mergeJob[E]{ops: j.ops, dst: to, a: from[:m], b: from[m:]})
	return struct{}{}
}

// A mergeJob merges the sorted runs a and b into dst, len(a)+len(b) long.
type mergeJob[E any] struct {
	ops  *sortOps[E]
	dst  []E
	a, b []E
}

func mergeRun[E any](w *Worker, j mergeJob[E]) struct{} {
	if len(j.a)+len(j.b) <= mergeGrain {
		j.ops.merge(j.dst, j.a, j.b)
		return struct{}{}
	}
	var i, k int // the cut: a[:i] and b[:k] go first
	if len(j.a) >= len(j.b) {
		i = len(j.a) / 2
		k = j.ops.below(j.b, j.a[i]) // b's elements equal to a[i] go after it
	} else {
		k = len(j.b) / 2
		i = j.ops.upTo(j.a, j.b[k]) // a's elements equal to b[k] go before it
	}
	lo := mergeJob[E]{ops: j.ops, dst: j.dst[:i+k], a: j.a[:i], b: j.b[:k]}
	hi := mergeJob[E]{ops: j.ops, dst: j.dst[i+k:], a: j.a[i:], b: j.b[k:]}
	Both(w, j.ops.mergeRun, lo, hi)
	return struct{}{}
}

// mergeOrdered writes the merge of a and b to dst, a's element first on
// ties. It repeats mergeFunc on purpose: with cmp.Less inlined the merge
// runs about twice as fast as through a compare function, and Sort's lead
// over slices.Sort depends on it.
func mergeOrdered[E cmp.Ordered](dst, a, b []E) {
	i, k, d := 0, 0, 0
	for i < len(a) && k < len(b) {
		if cmp.Less(b[k], a[i]) {
			dst[d] = b[k]
			k++
		} else {
			dst[d] = a[i]
			i++
		}
		d++
	}
	d += copy(dst[d:], a[i:])
	copy(dst[d:], b[k:])
}

func mergeFunc[E any](dst, a, b []E, cmp func(a, b E) int) {
	i, k, d := 0, 0, 0
	for i < len(a) && k < len(b) {
		if cmp(b[k], a[i]) < 0 {
			dst[d] = b[k]
			k++
		} else {
			dst[d] = a[i]
			i++
		}
		d++
	}
	d += copy(dst[d:], a[i:])
	copy(dst[d:], b[k:])
}

// searchOrdered returns the number of elements of s (sorted) less than x,
// or, with orEqual, less than or equal to x.
func searchOrdered[E cmp.Ordered](s []E, x E, orEqual bool) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmp.Less(s[m], x) || (orEqual && !cmp.Less(x, s[m])) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// searchFunc returns the number of elements s[m] (sorted) with
// cmp(s[m], x) < bound: bound 0 counts those before x, 1 those not after.
func searchFunc[E any](s []E, x E, bound int, cmp func(a, b E) int) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmp(s[m], x) < bound {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// stableLeaf sorts s stably: insertion sort of runs of 16, then merge
// passes between s and scratch, copying back if the passes end in scratch.
func stableLeaf[E any](s, scratch []E, cmp func(a, b E) int) {
	const run = 16
	for lo := 0; lo < len(s); lo += run {
		r := s[lo:min(lo+run, len(s))]
		for i := 1; i < len(r); i++ {
			for k := i; k > 0 && cmp(r[k], r[k-1]) < 0; k-- {
				r[k], r[k-1] = r[k-1], r[k]
			}
		}
	}
	from, to := s, scratch[:len(s)]
	for width := run; width < len(s); width *= 2 {
		for lo := 0; lo < len(s); lo += 2 * width {
			mid, hi := min(lo+width, len(s)), min(lo+2*width, len(s))
			mergeFunc(to[lo:hi], from[lo:mid], from[mid:hi], cmp)
		}
		from, to = to, from
	}
	if len(s) > 0 && &from[0] != &s[0] {
		copy(s, from)
	}
}
