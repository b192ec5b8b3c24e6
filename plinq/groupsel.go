package plinq

import (
	"reflect"
	"slices"
	"sync"
	"unsafe"
)

// groupFlow's numbering and placing of a Where over a slice: per batch,
// the offsets of the selected elements in their block (16 bits) and the
// local numbers of their keys are kept, and the placing reads the elements
// from the slice again.

// A selBuf is a block's offsets of the elements a Where over a slice
// selected and their local numbers, pooled: the blocks of a run hold
// them from the numbering to the placing, and the next run reuses them.
type selBuf struct{ sel, local []uint16 }

var selBufs = sync.Pool{New: func() any { return new(selBuf) }}

// placeAs is placeSelected with in and the runs read as slices of words
// when words, from copyWords, is not 0: the loop copies each element in
// one or two moves, not field by field.
func placeAs[T any](words int, in []T, sel, local []uint16, next []runEnd) {
	switch words {
	case 1:
		placeSelected(asWords[T, uint64](in), sel, local, next)
	case 2:
		placeSelected(asWords[T, [2]uint64](in), sel, local, next)
	case 3:
		placeSelected(asWords[T, [3]uint64](in), sel, local, next)
	case 4:
		placeSelected(asWords[T, [4]uint64](in), sel, local, next)
	default:
		placeSelected(in, sel, local, next)
	}
}

// asWords returns s's elements as W, a word type of the size of T.
func asWords[T, W any](s []T) []W {
	return unsafe.Slice((*W)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// copyWords returns how many 8-byte words T is, from 1 to 4, if its values
// may be copied as words, or 0: T holds no pointer (the garbage collector
// need not see the copy) and is 8-byte aligned.
func copyWords[T any]() int {
	t := reflect.TypeFor[T]()
	if t.Size() == 0 || t.Size() > 32 || t.Size()%8 != 0 || t.Align() < 8 || !pointerFree(t) {
		return 0
	}
	return int(t.Size() / 8)
}

// pointerFree reports whether values of t hold no pointer.
func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return t.Len() == 0 || pointerFree(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// placeSelected copies the elements at offsets sel of in to the runs that
// next starts, element i to local number local[i]'s; len(sel) == len(local).
// Apart from groupFlow, so that its loop keeps its values in registers.
// The block has as many elements of local number l as run l holds, so the
// writes stay within the runs.
//
// Every local number is below len(next) and every offset below len(in),
// which the loop does not check again.
//
//go:noinline
func placeSelected[T any](in []T, sel, local []uint16, next []runEnd) {
	size := unsafe.Sizeof(*new(T))
	sel = sel[:len(local)]
	ends, elems := unsafe.Pointer(unsafe.SliceData(next)), unsafe.Pointer(unsafe.SliceData(in))
	for i, l := range local {
		e := (*runEnd)(unsafe.Add(ends, uintptr(l)*unsafe.Sizeof(runEnd{})))
		*(*T)(unsafe.Add(e.p, e.off)) = *(*T)(unsafe.Add(elems, uintptr(sel[i])*size))
		e.off += size
	}
}

// A runEnd is where the next element of a run goes: off bytes past p, the
// run's first element. p stays the first, as a pointer past a run's end
// may be past its allocation.
type runEnd struct {
	p   unsafe.Pointer
	off uintptr
}

// A selNumbering numbers the keys of a Where over a slice as groupFlow
// selects its elements: per batch, one loop selects them (selectBlock),
// one calls key on those selected and one numbers the keys. Each loop that
// calls a user function does nothing else: Go's calls save no register, so
// every value a loop keeps across a call is stored and loaded again.
type selNumbering[T any, K comparable] struct {
	*flowGrouper[T, K]
	pred func(T) bool
	key  func(T) K
	sh   intShape
	ks   []K // the keys of a batch's elements that pred keeps
}

// batch selects the elements of block[a:e] that pred keeps, appending their
// offsets in the block to sel, and numbers their keys, appending their
// local numbers to local.
func (s *selNumbering[T, K]) batch(block []T, a, e int) {
	g := s.flowGrouper
	at := len(g.sel)
	g.sel = slices.Grow(g.sel, e-a)[:at+e-a]
	n := selectBlock(g.sel[at:], block, a, e, s.pred)
	g.sel = g.sel[:at+n]
	offs := g.sel[at:]
	if len(s.ks) < n {
		s.ks = make([]K, max(n, batchLen))
	}
	ks := s.ks[:n]
	keysAt(ks, block, offs, s.key)
	g.local = slices.Grow(g.local, n)[:at+n]
	local := g.local[at:]
	sh, d := s.sh, &g.dense
	for j := 0; j < len(ks); j++ {
		if j = numberHeld(ks, local, sh, d, g.bi.count, j); j == len(ks) {
			break
		}
		l := g.slow(ks[j], bitsOfKey(ks[j], sh), at+j)
		g.bi.count[l]++
		local[j] = uint16(l)
	}
}

// keysAt sets ks[j] to key(block[offs[j]]) for each j; len(ks) ==
// len(offs), and every offset is below len(block), which the loop does not
// check again. Apart from batch, so that its loop keeps few values across
// the calls of key.
//
//go:noinline
func keysAt[T any, K comparable](ks []K, block []T, offs []uint16, key func(T) K) {
	at, size := unsafe.Pointer(unsafe.SliceData(block)), unsafe.Sizeof(*new(T))
	ks = ks[:len(offs)]
	for j, i := range offs {
		ks[j] = key(*(*T)(unsafe.Add(at, uintptr(i)*size)))
	}
}

// selectBlock writes to sel the offsets in block of the elements of
// block[a:e] that pred keeps, in order, and returns how many; len(sel) >=
// e-a and e <= len(block) <= 1<<16. It writes every offset and keeps
// those pred selects, with no branch on pred's result, and without a
// bounds check: when it writes the n-th offset, n <= i-a. groupFlow keeps
// the offsets in 16 bits, so the key loop and the placing read them
// without a conversion loop between.
//
//go:noinline
func selectBlock[T any](sel []uint16, block []T, a, e int, pred func(T) bool) int {
	at, n := unsafe.Pointer(unsafe.SliceData(sel[:e-a])), 0
	block = block[:e]
	for i := a; i < e; i++ {
		*(*uint16)(unsafe.Add(at, 2*n)) = uint16(i)
		if pred(block[i]) {
			n++
		}
	}
	return n
}

// numberHeld numbers the keys ks[j:] that d holds, as batch does, in local
// (len(local) >= len(ks)), counting them in count, and returns the
// position of the first it does not hold, or len(ks). Apart from batch, so
// that its loop, which calls nothing, keeps its values in registers.
//
//go:noinline
func numberHeld[K comparable](ks []K, local []uint16, sh intShape, d *denseIndex, count []int, j int) int {
	base, slots := d.base, d.slots
	local = local[:len(ks)]
	for ; j < len(ks); j++ {
		off := bitsOfKey(ks[j], sh) - base // unused unless K is an integer kind (dense is off otherwise)
		if off >= uint64(len(slots)) {
			break
		}
		l := uint(slots[off])
		if l >= uint(len(count)) { // -1: no number yet
			break
		}
		count[l]++
		local[j] = uint16(l)
	}
	return j
}
