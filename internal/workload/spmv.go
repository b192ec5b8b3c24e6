package workload

import (
	"fmt"
	"math"
)

// spmv: y = A·x for a sparse n x n matrix A in compressed sparse row form; item i is row i,
// y[i] = sum over the row's entries k of val[k]*x[col[k]], in entry order.
//
// Row lengths follow a power law (Pareto with shape 1.5 and scale 16, as in web and social
// graphs): row i has min(n, int(16 / u^(2/3))) entries, u in (0, 1] from splitmix64 seeded 42
// (u = float64((z>>11)+1) / 2^53, as randomskew draws it). The mean is about 48 entries; at
// the default n = 200,000 (9.5 million entries) the longest row has 153,394, 1.6% of all the
// work in one item, and 43 rows are over a hundred times the mean, at random places along
// the range. After the n row lengths, each entry takes the next splitmix64 output z: column
// (z>>32)*n>>32, value 0.5 + (z&1023)/1024. x[j] = 1 + (j%7)/8. The matrix is generated in
// memory by New, deterministically, so no input file is needed. Products are rounded before
// they are added (see the package documentation).

// Parameters of spmv.
const (
	spmvSeed     = 42
	spmvMinRow   = 16      // the Pareto scale: the shortest row
	spmvRowCost  = 4       // model cost of a row's set-up, in Spin iterations
	spmvNnzCost  = 0.8     // model cost of one entry (a gather from x), in Spin iterations
	spmvMaxEntry = 1 << 30 // bound on the entries, so that col and the row offsets stay small
)

// spmvInstance is spmv's Instance; everything but y is read-only after New.
type spmvInstance struct {
	rowStart []int     // row i's entries are [rowStart[i], rowStart[i+1])
	col      []int32   // column of each entry
	val      []float64 // value of each entry
	x        []float64 // the dense input vector
	y        []float64 // the output; zero after Reset
}

// newSpmv returns the spmv instance with n rows. It panics if the matrix would have more
// than 2^30 entries (n beyond about 20 million).
func newSpmv(n int) Instance {
	in := &spmvInstance{rowStart: make([]int, n+1), x: make([]float64, n), y: make([]float64, n)}
	state := uint64(spmvSeed)
	total := 0
	for i := range n {
		var z uint64
		state, z = splitmix64(state)
		c := math.Cbrt(float64((z>>11)+1) / (1 << 53))
		total += int(min(float64(n), spmvMinRow/(c*c)))
		if total > spmvMaxEntry {
			panic(fmt.Sprintf("workload: spmv New(%d): more than %d entries", n, spmvMaxEntry))
		}
		in.rowStart[i+1] = total
	}
	in.col = make([]int32, total)
	in.val = make([]float64, total)
	for k := range in.col {
		var z uint64
		state, z = splitmix64(state)
		in.col[k] = int32((z >> 32) * uint64(n) >> 32)
		in.val[k] = 0.5 + float64(z&1023)/1024
	}
	for j := range in.x {
		in.x[j] = 1 + float64(j%7)/8
	}
	return in
}

// Len returns the number of rows.
func (in *spmvInstance) Len() int { return len(in.y) }

// Reset zeroes y.
func (in *spmvInstance) Reset() { clear(in.y) }

// Chunk computes y[i] for the rows [lo, hi), in order.
func (in *spmvInstance) Chunk(lo, hi int) {
	checkRange("Chunk", lo, hi, len(in.y))
	in.rows(lo, hi)
}

// Item computes y[i].
func (in *spmvInstance) Item(i int) {
	checkIndex("Item", i, len(in.y))
	in.rows(i, i+1)
}

func (in *spmvInstance) rows(lo, hi int) {
	x := in.x
	for i := lo; i < hi; i++ {
		a, b := in.rowStart[i], in.rowStart[i+1]
		col, val := in.col[a:b], in.val[a:b]
		val = val[:len(col)] // lets the compiler drop the bounds check on val[k]
		s := 0.0
		for k, j := range col {
			s = float64(val[k]*x[j]) + s
		}
		in.y[i] = s
	}
}

// Checksum returns the FNV-1a digest of y.
func (in *spmvInstance) Checksum() uint64 { return checksumFloats(in.y) }

// Cost returns spmvRowCost plus spmvNnzCost per entry of row i.
func (in *spmvInstance) Cost(i int) float64 {
	checkIndex("Cost", i, len(in.y))
	return spmvRowCost + spmvNnzCost*float64(in.rowStart[i+1]-in.rowStart[i])
}
