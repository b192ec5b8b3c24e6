package plinq

import (
	"slices"
	"unsafe"
)

// groupFlow is GroupBy's run over a flow whose indices each yield at most
// one element (indexed, or a Where over a slice) but that is not a slice:
// the elements are grouped as the flow yields them, without collecting
// them first. Each worker takes fixed blocks of groupBlock indices and,
// for each, numbers the keys of the block's elements in first-appearance
// order (a blockNumbering: a denseIndex while the keys are integers of
// small range, a map after that), in buffers of its own that the next
// block reuses, and keeps what the block needs, in allocations of its
// length. The blocks' keys are then merged in block order (mergeKeys),
// which numbers the groups in first-appearance order, and each block's
// elements go, in parallel over the blocks, after the same group's
// elements from earlier blocks. At most one element per index keeps a
// block's local numbers within 16 bits.
//
// A Where over a slice keeps, per block, the offsets of the elements it
// selected and their local numbers, in buffers that the next runs reuse
// (selBuf, groupsel.go), and the elements are read from the slice again
// to be placed: the predicate and key are still called once per element,
// and no copy of the elements is made but the result. The second read
// misses the cache for a slice larger than it, yet placing a window of
// blocks while it is still in cache cannot work here: where a group's
// elements go depends on the counts of the groups before it in all the
// blocks, and placing them anywhere else first costs a copy of the
// result, more memory traffic than the second read. Other
// flows keep each block's elements sorted by local number, stably, and
// their runs are copied to their places.
//
// It returns the key index, the elements group by group, in parts
// allocated in parallel (groupParts), and where each group starts in that
// order, as arrange does.
func groupFlow[T any, K comparable](x *exec, f flow[T], key func(T) K) (ix *keyIndex[K], out groupParts[T], start []int) {
	bl := groupBlock
	nb := (f.n + bl - 1) / bl
	ix = &keyIndex[K]{blocks: make([]blockIndex, nb)}
	blockKeys := make([][]K, nb)
	bits := keyBits[K]()
	newGrouper := func() *flowGrouper[T, K] {
		return &flowGrouper[T, K]{blockNumbering: blockNumbering[T, K]{m: make(map[K]int), dense: startDense(bits != nil)}}
	}
	// number numbers block b's keys with s, its elements yielded by run. A
	// block whose run stops early (a function failed, an early exit cut
	// the run, or it was canceled) does not stop the loop: the blocks
	// before it must still run to the end, for the run's error to be the
	// first in query order (see worker.fail), and those after it stop at
	// their first batch.
	number := func(s *flowGrouper[T, K], b int, run func(lo, hi int) bool) {
		lo := b * bl
		s.local = s.local[:0]
		s.begin(&ix.blocks[b])
		run(lo, min(lo+bl, f.n))
		blockKeys[b] = s.end()
	}
	var place func(runs [][]T, next []runEnd, b int)
	if elems, pred, ok := f.sliceElems(); ok && pred != nil {
		bufs := make([]*selBuf, nb) // bufs[b]: block b's offsets and local numbers
		words := copyWords[T]()
		sh, _ := shapeOf[K]()
		blocks(x, nb,
			func(w *worker) *flowGrouper[T, K] {
				s := newGrouper()
				sn := &selNumbering[T, K]{flowGrouper: s, pred: pred, key: key, sh: sh}
				s.run = func(lo, hi int) bool {
					s.sel = s.sel[:0]
					for a := lo; a < hi; a += batchLen {
						if w.stopped() {
							return false
						}
						sn.batch(elems[lo:hi], a-lo, min(a+batchLen, hi)-lo)
					}
					return true
				}
				return s
			},
			func(s *flowGrouper[T, K], b0, b1 int) bool {
				for b := b0; b < b1; b++ {
					buf := selBufs.Get().(*selBuf)
					s.sel, s.local = buf.sel[:0], buf.local[:0]
					number(s, b, s.run)
					buf.sel, buf.local = s.sel, s.local
					bufs[b] = buf
				}
				return true
			}, nil)
		place = func(runs [][]T, next []runEnd, b int) {
			buf := bufs[b]
			in, ls := elems[b*bl:], buf.local
			ss := buf.sel[:len(ls)]
			next = next[:len(runs)]
			for l, r := range runs {
				next[l] = runEnd{unsafe.Pointer(unsafe.SliceData(r)), 0}
			}
			placeAs(words, in, ss, ls, next)
			selBufs.Put(buf)
		}
	} else {
		sorted := make([][]T, nb) // sorted[b]: block b's elements by local number, stably
		blocks(x, nb,
			func(w *worker) *flowGrouper[T, K] {
				s := newGrouper()
				s.run = f.open(w, func(b []T) bool {
					at := len(s.items)
					s.items = append(s.items, b...)
					s.local = slices.Grow(s.local, len(b))[:at+len(b)]
					// The position of a local key's first element is its
					// position in the block: only its order matters here.
					s.add(b, at, key, bits, s.local[at:])
					return true
				})
				return s
			},
			func(s *flowGrouper[T, K], b0, b1 int) bool {
				for b := b0; b < b1; b++ {
					s.items = s.items[:0]
					number(s, b, s.run)
					sorted[b] = s.sort(&ix.blocks[b])
				}
				return true
			}, nil)
		place = func(runs [][]T, _ []runEnd, b int) {
			at := 0
			for l, c := range ix.blocks[b].count {
				copy(runs[l], sorted[b][at:at+c])
				at += c
			}
		}
	}
	mergeKeys(x, ix, blockKeys)
	start, dest := ix.places()
	out = allocGroups[T](x, start)
	// The blocks are placed last first: the blocks numbered last, whose
	// elements and buffers the numbering read last, may still be in the
	// shared cache, and the groups' first elements, which a caller reading
	// the groups in order reads first, are written last.
	each(x, nb, func(i0, i1 int) {
		var runs [][]T
		var next []runEnd
		for i := i0; i < i1; i++ {
			b := nb - 1 - i
			runs = out.runs(runs, dest[b], ix.blocks[b].count)
			next = slices.Grow(next[:0], len(runs))[:len(runs)]
			place(runs, next, b)
		}
	})
	return ix, out, start
}

// A flowGrouper is a worker's tables and buffers for groupFlow's blocks.
type flowGrouper[T any, K comparable] struct {
	blockNumbering[T, K]
	items []T      // the block's elements
	sel   []uint16 // or their offsets in the block, for a Where over a slice
	local []uint16 // their local numbers
	next  []int    // where sort puts the next element of each local number
	run   func(lo, hi int) bool
}

// sort returns the block's elements sorted by local number, stably, in a
// new slice of their length, bi holding their counts.
func (s *flowGrouper[T, K]) sort(bi *blockIndex) []T {
	if len(s.items) == 0 {
		return nil
	}
	out := make([]T, len(s.items))
	s.next = s.next[:0]
	sum := 0
	for _, c := range bi.count {
		s.next = append(s.next, sum)
		sum += c
	}
	for i, v := range s.items {
		l := s.local[i]
		out[s.next[l]] = v
		s.next[l]++
	}
	return out
}
