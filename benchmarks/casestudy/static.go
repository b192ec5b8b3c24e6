package casestudy

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// The chapter's static scheme processes the task tree level by level: the
// tasks of one level sit in an input array, GOMAXPROCS goroutines take a
// contiguous block of it each, and every task that creates children claims
// that many slots of the output array with one atomic add. The output array
// is allocated for the worst case (every task creating the most children),
// as a GPU kernel must allocate it before it runs. A WaitGroup ends each
// level.

// staticBlocks calls body on GOMAXPROCS contiguous blocks of [0, n) in
// parallel, the caller taking the first.
func staticBlocks(n int, body func(lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for k := 1; k < p; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(n*k/p, n*(k+1)/p)
		}()
	}
	body(0, n/p)
	wg.Wait()
}

// An mmSlot is a position in a level array.
type mmSlot struct {
	b      board
	parent int32 // index in the level above
	won    bool  // the move to it won
}

// minimaxStatic expands the tree level by level, then propagates values
// back up level by level, which is why it keeps every level: the values
// need the parent indices of all of them.
func minimaxStatic(root board, depth int, tr *Tracker) int {
	levels := [][]mmSlot{{{b: root, parent: -1}}}
	values := [][]atomic.Int64{make([]atomic.Int64, 1)}
	tr.create(1)
	for d := 0; ; d++ {
		in, val, last := levels[d], values[d], d == depth
		var out []mmSlot
		if !last {
			out = make([]mmSlot, cols*len(in))
			tr.store(int64(len(out)))
		}
		var next atomic.Int64
		staticBlocks(len(in), func(lo, hi int) {
			var kids [cols]mmSlot
			for i := lo; i < hi; i++ {
				n := &in[i]
				switch {
				case n.won:
					val[i].Store(-winScore)
					continue
				case last:
					val[i].Store(int64(n.b.evaluate()))
					continue
				}
				k := 0
				for c := range cols {
					if n.b.canPlay(c) {
						next, won := n.b.play(c)
						kids[k] = mmSlot{next, int32(i), won}
						k++
					}
				}
				if k == 0 {
					val[i].Store(0)
					continue
				}
				val[i].Store(math.MinInt64)
				at := next.Add(int64(k)) - int64(k) // claims out[at:at+k]
				copy(out[at:], kids[:k])
			}
		})
		if last {
			break
		}
		out = out[:next.Load()]
		tr.count(int64(len(out)))
		levels = append(levels, out)
		values = append(values, make([]atomic.Int64, len(out)))
	}
	for d := depth; d > 0; d-- { // back up, deepest level first
		in, val, up := levels[d], values[d], values[d-1]
		staticBlocks(len(in), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				neg, p := -val[i].Load(), &up[in[i].parent]
				for cur := p.Load(); neg > cur && !p.CompareAndSwap(cur, neg); cur = p.Load() {
				}
			}
		})
	}
	return int(values[0][0].Load())
}
