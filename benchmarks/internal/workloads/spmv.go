package workloads

import (
	"fmt"
	"math"

	"github.com/stealkit/stealkit/internal/workload"
)

// spmv: y = A·x for a sparse n x n matrix A in compressed sparse row form; item i is row i,
// y[i] = sum over the row's entries k of val[k]*x[col[k]], in entry order.
//
// Row lengths follow a power law (Pareto with shape 1.5 and scale 16, as in web and social
// graphs): row i has min(n, int(16 / u^(2/3))) entries, u in (0, 1] from splitmix64 seeded 42.
// The mean is about 48 entries; at n = 200,000 (9.5 million entries) the longest row has
// 153,394, 1.6% of all the work in one item, and 43 rows are over a hundred times the mean,
// at random places along the range. Each entry takes one more splitmix64 output z: column
// (z>>32)*n>>32, value 0.5 + (z&1023)/1024. x[j] = 1 + (j%7)/8. The matrix is generated in
// memory at New, deterministically, so no input file is needed. Products are rounded before
// they are added (float64(a*b) + s, see internal/workload), so the checksum is the same on
// every architecture.
const (
	spmvN        = 200_000
	spmvSeed     = 42
	spmvMinRow   = 16
	spmvRowCost  = 4       // model cost of a row's set-up, in Spin iterations
	spmvNnzCost  = 0.8     // model cost of one entry (a gather from x), in Spin iterations
	spmvMaxEntry = 1 << 30 // bound on the entries: col and the row offsets stay small
)

type spmvInstance struct {
	rowStart []int     // row i's entries are [rowStart[i], rowStart[i+1])
	col      []int32   // column of each entry
	val      []float64 // value of each entry
	x        []float64 // the dense input vector
	y        []float64 // the output; zero after Reset
}

// NewSpmv builds the spmv instance with n rows. It panics if n < 1 or the matrix would have
// more than 2^30 entries.
func NewSpmv(n int) workload.Instance {
	if n < 1 {
		panic(fmt.Sprintf("workloads: NewSpmv(%d): need at least one row", n))
	}
	in := &spmvInstance{rowStart: make([]int, n+1), x: make([]float64, n), y: make([]float64, n)}
	state := uint64(spmvSeed)
	total := 0
	for i := range n {
		var z uint64
		state, z = splitmix64(state)
		u := float64((z>>11)+1) / (1 << 53)
		c := math.Cbrt(u)
		total += int(min(float64(n), spmvMinRow/(c*c)))
		if total > spmvMaxEntry {
			panic(fmt.Sprintf("workloads: NewSpmv(%d): more than %d entries", n, spmvMaxEntry))
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

func (in *spmvInstance) Len() int   { return len(in.y) }
func (in *spmvInstance) Reset()     { clear(in.y) }
func (in *spmvInstance) Item(i int) { in.Chunk(i, i+1) }

// Chunk computes y[i] for the rows [lo, hi).
func (in *spmvInstance) Chunk(lo, hi int) {
	checkRange("spmv", lo, hi, len(in.y))
	x := in.x
	for i := lo; i < hi; i++ {
		a, b := in.rowStart[i], in.rowStart[i+1]
		col, val := in.col[a:b], in.val[a:b]
		val = val[:len(col)]
		s := 0.0
		for k, j := range col {
			s = float64(val[k]*x[j]) + s
		}
		in.y[i] = s
	}
}

func (in *spmvInstance) Checksum() uint64 { return checksumFloats(in.y) }

// Cost returns spmvRowCost plus spmvNnzCost per entry of row i.
func (in *spmvInstance) Cost(i int) float64 {
	checkRange("spmv Cost", i, i+1, len(in.y))
	return spmvRowCost + spmvNnzCost*float64(in.rowStart[i+1]-in.rowStart[i])
}

// checkRange panics unless 0 <= lo <= hi <= n.
func checkRange(what string, lo, hi, n int) {
	if lo < 0 || hi < lo || hi > n {
		panic(fmt.Sprintf("workloads: %s [%d, %d) with n = %d: range not within [0, n)", what, lo, hi, n))
	}
}
