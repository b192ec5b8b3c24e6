package plinq

import (
	"slices"
	"sort"
	"unsafe"
)

// Materializing a flow: the strategies a terminal operation chooses from.
//
// An indexed flow knows where every chunk's output goes: each worker writes
// its chunks straight into their slots of one output slice. Any other flow
// is gathered: each worker appends its chunks' outputs to pages of its own
// (doubling in size up to 1 MiB, never copied) and records a segment per
// chunk (its start index and where its output lies in the pages); then the
// segments are put in start order (unless the query is unordered), counted,
// and copied in parallel into one output allocated once at the right size. A
// run thus allocates its output, a page per MiB of output (and a few small
// ones per worker) and O(chunks) for segments, never per element.

// collect returns the elements of f, in query order unless ordered is false.
// The result is read-only: for a slice flow it is the slice itself.
func collect[T any](x *exec, f flow[T], ordered bool) []T {
	if f.isSlice {
		return f.slice
	}
	if f.indexed {
		return collectIndexed(x, f, 0, f.n)
	}
	parts, _ := gather(x, f, 0, f.n, ordered, 0)
	return concat(x, parts, -1)
}

// collectIndexed returns the elements of the indices [lo, hi) of the indexed
// flow f.
func collectIndexed[T any](x *exec, f flow[T], lo, hi int) []T {
	out := make([]T, hi-lo)
	type state struct {
		pos int
		run func(lo, hi int) bool
	}
	chunks(x, lo, hi,
		func(w *worker) *state {
			s := &state{}
			s.run = f.open(w, func(b []T) bool { s.pos += copy(out[s.pos:], b); return true })
			return s
		},
		func(s *state, a, b int) bool {
			s.pos = a - lo
			s.run(a, b)
			return true
		}, nil)
	return out
}

// A segment is the output of one chunk, or of consecutive chunks run by one
// worker one after the other, in the worker's pages.
type segment struct {
	lo, hi     int // the chunks cover [lo, hi)
	start, end int // their output: elements [start, end) of the worker's pages, end to end
}

// A gatherer is one worker's output: pages of firstPage, 2*firstPage,
// 4*firstPage, ... elements up to pageBytes, then of pageBytes, each filled
// before the next is made: the output grows without ever being copied, and
// a worker wastes less than a page. (Doubling without a cap allocated up to
// twice the output, all of it page-faulted in: slower, for fewer
// allocations.)
type gatherer[T any] struct {
	pages [][]T
	n     int // elements in pages
	segs  []segment
	taken int // elements of the current chunk
	run   func(lo, hi int) bool
}

const (
	firstPage = 1024    // elements
	pageBytes = 1 << 20 // bytes
)

func (g *gatherer[T]) add(b []T) {
	for len(b) > 0 {
		if len(g.pages) == 0 || len(g.pages[len(g.pages)-1]) == cap(g.pages[len(g.pages)-1]) {
			size := firstPage << min(len(g.pages), 20)
			if maxLen := pageBytes / max(int(unsafe.Sizeof(b[0])), 1); size > maxLen {
				size = max(maxLen, 1)
			}
			g.pages = append(g.pages, make([]T, 0, size))
		}
		p := &g.pages[len(g.pages)-1]
		k := min(len(b), cap(*p)-len(*p))
		*p = append(*p, b[:k]...)
		b = b[k:]
		g.n += k
	}
}

// appendParts appends the slices of the pages that hold elements [start,
// end) to parts.
func (g *gatherer[T]) appendParts(parts [][]T, start, end int) [][]T {
	off := 0
	for _, p := range g.pages {
		if start < off+len(p) && end > off {
			parts = append(parts, p[max(start-off, 0):min(end-off, len(p)):min(end-off, len(p))])
		}
		if off += len(p); off >= end {
			break
		}
	}
	return parts
}

// gather runs the flow f over [lo, hi) and returns the chunks' outputs, in
// query order if ordered. With limit > 0, a chunk stops once it has output
// limit elements and cuts the loop there (chunks after it stop and are
// dropped), since a caller that needs limit elements needs none after those.
// A stage may cut the loop too (TakeWhile does); cut reports whether any
// did.
func gather[T any](x *exec, f flow[T], lo, hi int, ordered bool, limit int) (parts [][]T, cut bool) {
	var gs []*gatherer[T]
	l := chunks(x, lo, hi,
		func(w *worker) *gatherer[T] {
			g := &gatherer[T]{}
			g.run = f.open(w, func(b []T) bool {
				if limit > 0 && g.taken+len(b) >= limit {
					g.add(b[:limit-g.taken])
					g.taken = limit
					w.l.lower(w.lo)
					return false
				}
				g.add(b)
				g.taken += len(b)
				return true
			})
			return g
		},
		func(g *gatherer[T], a, b int) bool {
			start := g.n
			g.taken = 0
			g.run(a, b)
			// pfor hands a worker its range in pieces, so consecutive chunks
			// are common: extend the last segment rather than start one per
			// piece. A cut cannot fall inside a merged segment after the fact:
			// a cut is the start of a chunk, and no other worker has a chunk
			// in [lo, hi); a cut at one of this worker's chunks is made while
			// it runs that chunk, and the chunks after it then output nothing.
			if k := len(g.segs) - 1; k >= 0 && g.segs[k].hi == a {
				g.segs[k].hi, g.segs[k].end = b, g.n
			} else if g.n > start {
				g.segs = append(g.segs, segment{a, b, start, g.n})
			}
			return true
		},
		func(g *gatherer[T]) { gs = append(gs, g) })
	type ref struct {
		g *gatherer[T]
		segment
	}
	var refs []ref
	keep, pages := l.cut.Load(), 0 // int64: int(math.MaxInt64) is -1 on 32-bit platforms
	for _, g := range gs {
		pages += len(g.pages)
		for _, s := range g.segs {
			if int64(s.lo) <= keep {
				refs = append(refs, ref{g, s})
			}
		}
	}
	if ordered {
		slices.SortFunc(refs, func(a, b ref) int { return a.lo - b.lo }) // starts are distinct: chunks are disjoint
	}
	parts = make([][]T, 0, len(refs)+pages) // a segment spanning k pages makes k parts
	for _, r := range refs {
		parts = r.g.appendParts(parts, r.start, r.end)
	}
	return parts, l.wasCut()
}

// concat returns the first n elements of the concatenation of parts (all of
// them if n < 0) in one new slice, copied in parallel.
func concat[T any](x *exec, parts [][]T, n int) []T {
	off := make([]int, len(parts)+1)
	for i, p := range parts {
		off[i+1] = off[i] + len(p)
	}
	if n < 0 || n > off[len(parts)] {
		n = off[len(parts)]
	}
	out := make([]T, n)
	const piece = 1 << 14 // elements per copying task
	each(x, (n+piece-1)/piece, func(b0, b1 int) {
		a, e := b0*piece, min(b1*piece, n)
		k := sort.SearchInts(off, a+1) - 1 // the part holding out[a]
		for a < e {
			a += copy(out[a:e], parts[k][a-off[k]:])
			k++
		}
	})
	return out
}
