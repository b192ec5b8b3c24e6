package plinq

import (
	"fmt"
	"testing"
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
