package plinq

import "slices"

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
// selected and their local numbers, and the elements are read from the
// slice again to be placed: the predicate and key are still called once
// per element, and no copy of the elements is made but the result. Other
// flows keep each block's elements sorted by local number, stably, and
// their runs are copied to their places.
//
// It returns all elements group by group and where each group starts, as
// arrange does, and the key index.
func groupFlow[T any, K comparable](x *exec, f flow[T], key func(T) K) (ix *keyIndex[K], all []T, start []int) {
	bl := groupBlock
	nb := (f.n + bl - 1) / bl
	ix = &keyIndex[K]{blocks: make([]blockIndex, nb)}
	blockKeys := make([][]K, nb)
	bits := keyBits[K]()
	newGrouper := func() *flowGrouper[T, K] {
		return &flowGrouper[T, K]{blockNumbering: blockNumbering[T, K]{m: make(map[K]int), dense: startDense(bits != nil)}}
	}
	// number numbers block b's keys with s, its elements yielded by run.
	number := func(s *flowGrouper[T, K], b int, run func(lo, hi int) bool) bool {
		lo := b * bl
		s.local = s.local[:0]
		s.begin(&ix.blocks[b])
		ok := run(lo, min(lo+bl, f.n))
		blockKeys[b] = s.end()
		return ok
	}
	var place func(b int, dest []int)
	if elems, pred, ok := f.sliceElems(); ok && pred != nil {
		sel := make([][]uint16, nb) // sel[b]: the offsets in block b of its elements
		local := make([][]uint16, nb)
		blocks(x, nb,
			func(w *worker) *flowGrouper[T, K] {
				s := newGrouper()
				s.run = func(lo, hi int) bool {
					s.sel = s.sel[:0]
					for a := lo; a < hi; a += batchLen {
						if w.stopped() {
							return false
						}
						e := min(a+batchLen, hi)
						// Every offset is written and the selected ones
						// kept, with no branch on pred's result, which a
						// processor cannot predict for a random selection.
						at := len(s.sel)
						sel, n := slices.Grow(s.sel, e-a)[:at+e-a], at
						for i, v := range elems[a:e] {
							sel[n] = uint16(a - lo + i)
							if pred(v) {
								n++
							}
						}
						s.sel = sel[:n]
						keys, us := s.selKeys(elems[lo:], s.sel[at:], key, bits)
						s.local = slices.Grow(s.local, len(keys))[:at+len(keys)]
						s.addKeys(keys, us, at, s.local[at:])
					}
					return true
				}
				return s
			},
			func(s *flowGrouper[T, K], b0, b1 int) bool {
				for b := b0; b < b1; b++ {
					if !number(s, b, s.run) {
						return false
					}
					sel[b], local[b] = slices.Clone(s.sel), slices.Clone(s.local)
				}
				return true
			}, nil)
		place = func(b int, next []int) {
			in := elems[b*bl:]
			for i, o := range sel[b] {
				l := local[b][i]
				all[next[l]] = in[o]
				next[l]++
			}
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
					if !number(s, b, s.run) {
						return false
					}
					sorted[b] = s.sort(&ix.blocks[b])
				}
				return true
			}, nil)
		place = func(b int, dest []int) {
			at := 0
			for l, c := range ix.blocks[b].count {
				copy(all[dest[l]:], sorted[b][at:at+c])
				at += c
			}
		}
	}
	mergeKeys(x, ix, blockKeys)
	start, dest := ix.places()
	all = make([]T, start[len(start)-1])
	each(x, nb, func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			place(b, dest[b])
		}
	})
	return ix, all, start
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

// selKeys calls key on the elements in[o] for the offsets o in sel, in
// order, and returns their keys and bits, as keysOf does.
func (s *flowGrouper[T, K]) selKeys(in []T, sel []uint16, key func(T) K, bits func([]K, []uint64)) ([]K, []uint64) {
	if len(sel) > len(s.keyBatch.keys) {
		s.keyBatch.keys, s.keyBatch.us = make([]K, max(len(sel), batchLen)), make([]uint64, max(len(sel), batchLen))
	}
	keys, us := s.keyBatch.keys[:len(sel)], s.keyBatch.us[:len(sel)]
	for j, o := range sel {
		keys[j] = key(in[o])
	}
	if bits != nil {
		bits(keys, us)
	}
	return keys, us
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
