package workloads

import (
	"fmt"

	"github.com/stealkit/stealkit/internal/workload"
)

// matmul: C = A·B for dense n x n matrices, the textbook example of a parallel loop: item i is
// row i of C, computed in i-k-j order (for each k, C[i][j] += A[i][k]*B[k][j] along the row,
// which streams through B's rows). Every row costs the same n·n multiply-adds, so matmul is
// even work with a large body (about 0.3 ms per row at n = 512) and a shared read-only B of
// n·n·8 bytes (2 MiB at n = 512) that every worker streams. A[i][k] = ((i+2k)%13)/4 - 1,
// B[k][j] = ((3k+j)%11)/8. Products are rounded before they are added (see internal/workload).
const (
	matmulN       = 512
	matmulMACCost = 0.4 // model cost of one multiply-add, in Spin iterations
)

type matmulInstance struct {
	n       int
	a, b, c []float64 // row-major n x n; c is zero after Reset
}

// NewMatmul builds the matmul instance for n x n matrices. It panics if n < 1.
func NewMatmul(n int) workload.Instance {
	if n < 1 {
		panic(fmt.Sprintf("workloads: NewMatmul(%d): need at least one row", n))
	}
	in := &matmulInstance{n: n, a: make([]float64, n*n), b: make([]float64, n*n), c: make([]float64, n*n)}
	for i := range n {
		for k := range n {
			in.a[i*n+k] = float64((i+2*k)%13)/4 - 1
			in.b[i*n+k] = float64((3*i+k)%11) / 8
		}
	}
	return in
}

func (in *matmulInstance) Len() int   { return in.n }
func (in *matmulInstance) Reset()     { clear(in.c) }
func (in *matmulInstance) Item(i int) { in.Chunk(i, i+1) }

// Chunk computes rows [lo, hi) of C from scratch.
func (in *matmulInstance) Chunk(lo, hi int) {
	checkRange("matmul", lo, hi, in.n)
	n := in.n
	for i := lo; i < hi; i++ {
		row := in.c[i*n : (i+1)*n]
		clear(row)
		for k, aik := range in.a[i*n : (i+1)*n] {
			brow := in.b[k*n : (k+1)*n]
			brow = brow[:len(row)]
			for j := range row {
				row[j] = float64(aik*brow[j]) + row[j]
			}
		}
	}
}

func (in *matmulInstance) Checksum() uint64 { return checksumFloats(in.c) }

// Cost returns n·n multiply-adds at matmulMACCost each.
func (in *matmulInstance) Cost(i int) float64 {
	checkRange("matmul Cost", i, i+1, in.n)
	return matmulMACCost * float64(in.n) * float64(in.n)
}
