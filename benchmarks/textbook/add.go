package textbook

import "github.com/stealkit/stealkit/pfor"

// The variants of Add.
const (
	AddSeq    = "seq"    // the sequential loop
	AddFuture = "future" // quadrant splitting, a future per quadrant, down to the base case
	AddRange  = "range"  // pfor.Chunks over rows with the default partitioner, for reference
)

// AddVariants lists the parallel variants of Add.
var AddVariants = []string{AddFuture, AddRange}

// Add sets c = a + b with the named variant. For AddFuture, a block is
// split into four quadrants, each added by a task spawned as a future
// (pfor.Spawn) and joined by getting all four, as the chapter's AddTask
// does with a thread pool's futures, until the block has at most base
// rows and columns, which a sequential loop adds; the other variants
// ignore base. c, a and b must be n x n. Add panics on an unknown variant,
// or if base < 1 for AddFuture.
func Add(variant string, c, a, b *Matrix, base int) {
	n := c.N
	whole := block{0, 0, n, n}
	switch variant {
	case AddSeq:
		addBlock(c, a, b, whole)
	case AddFuture:
		if base < 1 {
			panic("textbook: Add: base case must be at least 1 row")
		}
		pfor.Run(func(w *pfor.Worker) { addQuadrants(w, c, a, b, whole, base) })
	case AddRange:
		pfor.Chunks(0, n, func(lo, hi int) { addBlock(c, a, b, block{lo, 0, hi - lo, n}) })
	default:
		panic("textbook: Add: unknown variant " + variant)
	}
}

// AddTasks returns how many futures Add(AddFuture, ...) spawns for an
// n x n matrix with the base case base.
func AddTasks(n, base int) int {
	var count func(k block) int
	count = func(k block) int {
		if k.rows <= base && k.cols <= base {
			return 0
		}
		qs := k.quadrants()
		return 4 + count(qs[0]) + count(qs[1]) + count(qs[2]) + count(qs[3])
	}
	return count(block{0, 0, n, n})
}

// A block is the rows x cols part of a matrix whose top left entry is at
// row r, column c.
type block struct{ r, c, rows, cols int }

// quadrants splits k in four, the first row and column halves rounded
// down.
func (k block) quadrants() [4]block {
	hr, hc := k.rows/2, k.cols/2
	return [4]block{
		{k.r, k.c, hr, hc}, {k.r, k.c + hc, hr, k.cols - hc},
		{k.r + hr, k.c, k.rows - hr, hc}, {k.r + hr, k.c + hc, k.rows - hr, k.cols - hc},
	}
}

func addBlock(c, a, b *Matrix, k block) {
	n := c.N
	for i := k.r; i < k.r+k.rows; i++ {
		lo, hi := i*n+k.c, i*n+k.c+k.cols
		cr, ar, br := c.A[lo:hi], a.A[lo:hi], b.A[lo:hi]
		for j := range cr {
			cr[j] = ar[j] + br[j]
		}
	}
}

func addQuadrants(w *pfor.Worker, c, a, b *Matrix, k block, base int) {
	if k.rows <= base && k.cols <= base {
		addBlock(c, a, b, k)
		return
	}
	var fs [4]*pfor.Future[struct{}]
	for q, kq := range k.quadrants() {
		fs[q] = pfor.Spawn(w, func(w *pfor.Worker) struct{} {
			addQuadrants(w, c, a, b, kq, base)
			return struct{}{}
		})
	}
	for _, f := range fs {
		f.Get(w)
	}
}
