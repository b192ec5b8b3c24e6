package plinq_test

import (
	"testing"

	"github.com/stealkit/stealkit/plinq"
)

// A mat4 is a 4x4 matrix of uint32: multiplying two (64 multiplications,
// wrapping) is an associative, non-commutative combine that costs tens of
// nanoseconds.
type mat4 [4][4]uint32

func mul4(a, b mat4) mat4 {
	var c mat4
	for i := range 4 {
		for j := range 4 {
			c[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j] + a[i][3]*b[3][j]
		}
	}
	return c
}

// BenchmarkScan: plinq.Scan(From(s)).ToSlice against the sequential loop,
// as pfor's BenchmarkScan: op=sum the memory-bound prefix sum of 16M int64,
// op=mat4 a prefix product of 1M 4x4 matrices. impl=sequential calls the
// combine directly, impl=sequential-func through a func value. A slice
// source is collected for free and scanned by pfor.Scan, so pfor's
// BenchmarkScan states the bounds that frame impl=plinq too.
//
//	go test -run '^$' -bench 'Scan$' -count 6 ./plinq/ | benchstat -col /impl -
func BenchmarkScan(b *testing.B) {
	ints := ints16M()
	mats := make([]mat4, 1<<20)
	for i := range mats {
		for j := range 4 {
			mats[i][j][j] = 1
		}
		mats[i][i%4][(i+1)%4] = uint32(i)
	}
	var one mat4
	for j := range 4 {
		one[j][j] = 1
	}
	add := func(a, b int64) int64 { return a + b }
	mul := mul4
	last := func(s []int64) int64 { return s[len(s)-1] }
	lastMat := func(s []mat4) int64 { return int64(s[len(s)-1][0][1]) }
	b.Run("op=sum", func(b *testing.B) {
		runImpls(b, []impl{
			{"sequential", func() int64 {
				out := make([]int64, len(ints))
				var acc int64
				for i, x := range ints {
					acc += x
					out[i] = acc
				}
				return last(out)
			}},
			{"sequential-func", func() int64 { return last(seqScanFunc(ints, 0, add)) }},
			{"plinq", func() int64 { return last(must(plinq.Scan(plinq.From(ints), 0, add).ToSlice())) }},
		})
	})
	b.Run("op=mat4", func(b *testing.B) {
		runImpls(b, []impl{
			{"sequential", func() int64 {
				out := make([]mat4, len(mats))
				acc := one
				for i, x := range mats {
					acc = mul4(acc, x)
					out[i] = acc
				}
				return lastMat(out)
			}},
			{"sequential-func", func() int64 { return lastMat(seqScanFunc(mats, one, mul)) }},
			{"plinq", func() int64 { return lastMat(must(plinq.Scan(plinq.From(mats), one, mul).ToSlice())) }},
		})
	})
}

// seqScanFunc is the sequential scan calling op through a func value, as
// plinq must: kept out of line so that the compiler cannot inline op, as
// it does when a loop calls a closure defined in the same function.
//
//go:noinline
func seqScanFunc[T any](in []T, identity T, op func(T, T) T) []T {
	out := make([]T, len(in))
	acc := identity
	for i, x := range in {
		acc = op(acc, x)
		out[i] = acc
	}
	return out
}
