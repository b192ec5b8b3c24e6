package textbook

import (
	"fmt"
	"math/rand/v2"
)

// A Matrix is an n x n matrix of float64 in row-major order.
type Matrix struct {
	N int       // rows and columns
	A []float64 // A[i*N+j] is row i, column j
}

// New returns an n x n matrix of zeros. It panics if n < 0.
func New(n int) *Matrix {
	if n < 0 {
		panic(fmt.Sprintf("textbook: New(%d): negative size", n))
	}
	return &Matrix{N: n, A: make([]float64, n*n)}
}

// Random returns an n x n matrix of integers in [-8, 8] drawn from a
// source seeded with seed. With such entries every product is at most 64
// in magnitude and every dot product or sum of fewer than 2^46 of them is
// an integer below 2^52: exact in float64, whatever the order of the
// additions.
func Random(n int, seed uint64) *Matrix {
	m := New(n)
	rng := rand.New(rand.NewPCG(seed, 0x7e47b00c))
	for i := range m.A {
		m.A[i] = float64(rng.IntN(17) - 8)
	}
	return m
}

// Row returns row i of m, sharing m's storage.
func (m *Matrix) Row(i int) []float64 { return m.A[i*m.N : (i+1)*m.N] }

// Transpose returns a new matrix, m's transpose.
func (m *Matrix) Transpose() *Matrix {
	t := New(m.N)
	for i := range m.N {
		for j, v := range m.Row(i) {
			t.A[j*m.N+i] = v
		}
	}
	return t
}

// Diff returns nil if got and want are equal, entry for entry, else an
// error naming the first entry that differs.
func Diff(got, want *Matrix) error {
	if got.N != want.N {
		return fmt.Errorf("%d x %d matrix; want %d x %d", got.N, got.N, want.N, want.N)
	}
	for k, v := range got.A {
		if v != want.A[k] {
			return fmt.Errorf("c[%d][%d] = %v; want %v", k/got.N, k%got.N, v, want.A[k])
		}
	}
	return nil
}
