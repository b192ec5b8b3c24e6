package plinq

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"
)

// TestGroupFlowLocalKeys: numbering a Where over a slice gives each block
// one local number per distinct key while the dense window holds the keys,
// also when a new key moves or widens the window mid-batch and the keys
// span the whole window: a loop that
// kept using the window it had before would number a key met again anew
// (the groups would still be right, the blocks' key lists not).
func TestGroupFlowLocalKeys(t *testing.T) {
	defer ShrinkSizes()()
	in := make([]int, 400)
	for i := range in {
		in[i] = 7 - (i/3)%8 // descending runs: blocks meet keys below the window's base
		if i%50 < 5 {
			in[i] = 0 // the window's other edge early: all keys span exactly denseSpan
		}
	}
	keep := func(v int) bool { return v != 2 }
	q := From(in).Where(keep)
	x := newExec(q.set)
	ix, _, _ := groupFlow(x, q.flow(x), func(v int) int { return v })
	for b := range ix.blocks {
		distinct := map[int]bool{}
		for _, v := range in[b*groupBlock : min((b+1)*groupBlock, len(in))] {
			if keep(v) {
				distinct[v] = true
			}
		}
		if got := len(ix.blocks[b].count); got != len(distinct) {
			t.Fatalf("block %d: %d local keys; want %d, one per distinct key %v", b, got, len(distinct), fmt.Sprint(distinct))
		}
	}
}

// TestCopyWords: a type is copied as words only if it holds no pointer,
// is 8-byte aligned and 8 to 32 bytes long.
func TestCopyWords(t *testing.T) {
	type row struct {
		Price  int64
		Qty    int32
		Region uint16
		Status uint8
	}
	type withPtr struct {
		p *int
		v int64
	}
	type nested struct {
		a [2]int64
		b struct{ c, d float64 }
	}
	type hidden struct {
		a [1]struct{ s []int }
		v int64
	}
	for _, c := range []struct {
		name string
		got  int
		want int
	}{
		{"int64", copyWords[int64](), 1},
		{"row", copyWords[row](), 2},
		{"[3]uint64", copyWords[[3]uint64](), 3},
		{"nested", copyWords[nested](), 4},
		{"complex128", copyWords[complex128](), 2},
		{"[5]int64", copyWords[[5]int64](), 0},
		{"[4]int32", copyWords[[4]int32](), 0},
		{"int32", copyWords[int32](), 0},
		{"struct{}", copyWords[struct{}](), 0},
		{"string", copyWords[string](), 0},
		{"withPtr", copyWords[withPtr](), 0},
		{"hidden", copyWords[hidden](), 0},
		{"[2]*int", copyWords[[2]*int](), 0},
		{"func()", copyWords[func()](), 0},
	} {
		if unsafe.Alignof(uint64(0)) < 8 {
			c.want = 0 // 32-bit platforms align 8-byte words to 4
		}
		if c.got != c.want {
			t.Errorf("copyWords[%s]() = %d; want %d", c.name, c.got, c.want)
		}
	}
}

// TestPlaceAs: placeAs puts each selected element of a block after the
// earlier ones of its local number, for element types copied as one to
// four words and as themselves, and writes nothing else.
func TestPlaceAs(t *testing.T) {
	t.Run("1", func(t *testing.T) { checkPlaceAs(t, func(i int) int64 { return int64(i) }) })
	t.Run("2", func(t *testing.T) { checkPlaceAs(t, func(i int) [2]int64 { return [2]int64{int64(i), -int64(i)} }) })
	t.Run("3", func(t *testing.T) { checkPlaceAs(t, func(i int) [3]int64 { return [3]int64{int64(i), 7, -int64(i)} }) })
	t.Run("4", func(t *testing.T) {
		checkPlaceAs(t, func(i int) [4]int64 { return [4]int64{int64(i), 7, 8, -int64(i)} })
	})
	t.Run("pointers", func(t *testing.T) {
		checkPlaceAs(t, func(i int) struct {
			s string
			v int64
		} {
			return struct {
				s string
				v int64
			}{fmt.Sprint(i), int64(i)}
		})
	})
}

func checkPlaceAs[T comparable](t *testing.T, elem func(int) T) {
	const n, locals = 300, 5
	in := make([]T, n)
	for i := range in {
		in[i] = elem(i)
	}
	var sel, local []uint16
	want := make([][]T, locals)
	for i := 0; i < n; i += 1 + i%3 { // skips some elements
		l := (i * 7 / 3) % locals
		sel, local = append(sel, uint16(i)), append(local, uint16(l))
		want[l] = append(want[l], in[i])
	}
	// The runs lie in one slice, each followed by a guard element that
	// must stay zero.
	var all []T
	at := make([]int, locals)
	for l := range want {
		at[l] = len(all)
		all = append(all, make([]T, len(want[l])+1)...)
	}
	next := make([]runEnd, locals)
	for l := range next {
		next[l] = runEnd{unsafe.Pointer(&all[at[l]]), 0}
	}
	placeAs(copyWords[T](), in, sel, local, next)
	var zero T
	for l := range want {
		got := all[at[l] : at[l]+len(want[l])]
		if !slices.Equal(got, want[l]) {
			t.Fatalf("run %d = %v; want %v", l, got, want[l])
		}
		if g := all[at[l]+len(want[l])]; g != zero {
			t.Fatalf("after run %d: %v; want the zero value", l, g)
		}
	}
}
