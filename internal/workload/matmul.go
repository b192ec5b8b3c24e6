package workload

// matmul: C = A·B for dense n x n matrices, the textbook example of a parallel loop: item i is
// row i of C, computed in i-k-j order (for each k, C[i][j] = A[i][k]*B[k][j] + C[i][j] along
// the row, which streams through B's rows). Every row costs the same n·n multiply-adds, so
// matmul is even work with a large body (n·n multiply-adds per item) and a shared
// read-only B of n·n·8 bytes (2 MiB at n = 512) that every worker streams. The inputs are
// formulas, so nothing is random: A[i][k] = ((i+2k)%13)/4 - 1, B[k][j] = ((3k+j)%11)/8. Products
// are rounded before they are added (see the package documentation).

// matmulMACCost is the model cost of one multiply-add in Spin iterations: the adds of a row
// are independent of each other, so several are in flight at once.
const matmulMACCost = 0.4

// matmulInstance is matmul's Instance; a and b are read-only after New.
type matmulInstance struct {
	n       int
	a, b, c []float64 // row-major n x n; c is zero after Reset
}

// newMatmul returns the matmul instance for n x n matrices.
func newMatmul(n int) Instance {
	in := &matmulInstance{n: n, a: make([]float64, n*n), b: make([]float64, n*n), c: make([]float64, n*n)}
	for i := range n {
		for k := range n {
			in.a[i*n+k] = float64((i+2*k)%13)/4 - 1
			in.b[i*n+k] = float64((3*i+k)%11) / 8
		}
	}
	return in
}

// Len returns the number of rows.
func (in *matmulInstance) Len() int { return in.n }

// Reset zeroes C.
func (in *matmulInstance) Reset() { clear(in.c) }

// Chunk computes rows [lo, hi) of C from scratch, in order.
func (in *matmulInstance) Chunk(lo, hi int) {
	checkRange("Chunk", lo, hi, in.n)
	in.rows(lo, hi)
}

// Item computes row i of C.
func (in *matmulInstance) Item(i int) {
	checkIndex("Item", i, in.n)
	in.rows(i, i+1)
}

func (in *matmulInstance) rows(lo, hi int) {
	n := in.n
	for i := lo; i < hi; i++ {
		row := in.c[i*n : (i+1)*n]
		clear(row)
		for k, aik := range in.a[i*n : (i+1)*n] {
			brow := in.b[k*n : (k+1)*n]
			brow = brow[:len(row)] // lets the compiler drop the bounds check on brow[j]
			for j := range row {
				row[j] = float64(aik*brow[j]) + row[j]
			}
		}
	}
}

// Checksum returns the FNV-1a digest of C, row by row.
func (in *matmulInstance) Checksum() uint64 { return checksumFloats(in.c) }

// Cost returns n·n multiply-adds at matmulMACCost each.
func (in *matmulInstance) Cost(i int) float64 {
	checkIndex("Cost", i, in.n)
	return matmulMACCost * float64(in.n) * float64(in.n)
}
