package plinq

// Early exit for positional answers: windows.
//
// First, Take, TakeWhile and ElementAt need a prefix of the query in query
// order, and a flow that is not indexed does not know which indices yield
// that prefix. So they run the flow over windows of its index space that
// double in length, [0, w), [w, 3w), ..., gathering each window in order,
// and stop after the window in which the answer is complete: the work done
// is at most about twice the work the answer needs, plus the first window.
// Within a window, the chunk that completes the answer cuts the loop (see
// gather), so later chunks skip their work, and the caller still gets the
// first elements in order, since chunks before the cut always run to the
// end.

var firstWindow = 1 << 12

// windows calls visit for consecutive windows [a, b) of [0, n), doubling,
// until visit returns false or the space is covered. With maxLen > 0
// windows stop growing at maxLen indices.
func windows(n, maxLen int, visit func(a, b int) bool) {
	w := firstWindow
	for a := 0; a < n; {
		b := a + min(w, n-a)
		if !visit(a, b) {
			return
		}
		a = b
		if maxLen <= 0 || w < maxLen {
			w *= 2
		}
	}
}

// prefix returns the first k elements of f in query order (fewer if f has
// fewer).
func prefix[T any](x *exec, f flow[T], k int) []T {
	if k == 0 {
		return []T{}
	}
	if f.isSlice {
		return f.slice[:min(k, f.n)]
	}
	if f.indexed {
		return collectIndexed(x, f, 0, min(k, f.n))
	}
	var parts [][]T
	got := 0
	windows(f.n, 0, func(a, b int) bool {
		ps, _ := gather(x, f, a, b, true, k-got)
		for _, p := range ps {
			parts = append(parts, p)
			got += len(p)
		}
		return got < k
	})
	return concat(x, parts, k)
}

// prefixWhile returns the elements of f in query order up to the first one
// the flow cuts at (see takeWhileFlow).
func prefixWhile[T any](x *exec, f flow[T]) []T {
	var parts [][]T
	windows(f.n, 0, func(a, b int) bool {
		ps, cut := gather(x, f, a, b, true, 0)
		parts = append(parts, ps...)
		return !cut
	})
	return concat(x, parts, -1)
}

// last returns the last element of f, and false if f is empty. It scans
// windows from the end.
func last[T any](x *exec, f flow[T]) (v T, ok bool) {
	if f.indexed {
		if f.n == 0 {
			return v, false
		}
		return collectIndexed(x, f, f.n-1, f.n)[0], true
	}
	w := firstWindow
	for b := f.n; b > 0; w *= 2 {
		a := b - min(w, b)
		if ps, _ := gather(x, f, a, b, true, 0); len(ps) > 0 {
			p := ps[len(ps)-1]
			return p[len(p)-1], true
		}
		b = a
	}
	return v, false
}

// stream calls yield with the elements of f, in query order unless
// ordered is false, computing them window by window in parallel (windows of
// at most streamWindow indices), and stops when yield returns false.
func stream[T any](x *exec, f flow[T], ordered bool, yield func(T) bool) {
	if f.isSlice {
		for _, v := range f.slice {
			if !yield(v) {
				return
			}
		}
		return
	}
	windows(f.n, streamWindow, func(a, b int) bool {
		var ps [][]T
		if f.indexed {
			ps = [][]T{collectIndexed(x, f, a, b)}
		} else {
			ps, _ = gather(x, f, a, b, ordered, 0)
		}
		for _, p := range ps {
			for _, v := range p {
				if !yield(v) {
					return false
				}
			}
		}
		return true
	})
}

var streamWindow = 1 << 20
