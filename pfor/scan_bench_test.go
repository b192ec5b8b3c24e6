package pfor_test

import (
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

// A mat4 is a 4x4 matrix of uint32: multiplying two (64 multiplications,
// wrapping) is an associative, non-commutative combine that costs tens of
// nanoseconds, the scan whose combine dominates.
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

var scanSink any

// BenchmarkScan: op=sum is the memory-bound prefix sum of 16M int64 (128
// MiB in, 128 MiB out); op=mat4 a prefix product of 1M 4x4 matrices, whose
// combine costs tens of ns. impl=sequential is the plain loop, with + (or
// mul4) called directly; impl=sequential-func the same loop calling the
// combine through a func value, as pfor.Scan must; impl=pfor is pfor.Scan.
// Every case runs once untimed before the first is timed, so that none
// pays alone for page-faulting the heap the others reuse.
//
// Two bounds frame what impl=pfor can reach on p workers. A prefix
// computation makes about 2n/(p+1) combines on its longest path (Snir's
// bound, which the two-pass plan meets): at most (p+1)/2 times
// impl=sequential-func, on any combine. And pfor.Scan must call op through
// a func value: on two workers it keeps up with impl=sequential, whose +
// the compiler inlines, only where a step of impl=sequential-func (a call
// through a func value, a load and a store) costs at most 3/2 of a step of
// impl=sequential.
//
//	go test -run '^$' -bench Scan -count 6 ./pfor/ | benchstat -col /impl -
func BenchmarkScan(b *testing.B) {
	ints := make([]int64, 16<<20)
	for i := range ints {
		ints[i] = int64(i%1000) - 500
	}
	mats := make([]mat4, 1<<20)
	for i := range mats {
		for j := range 4 {
			mats[i][j][j] = 1
		}
		mats[i][i%4][(i+1)%4] = uint32(i)
	}
	add := func(a, b int64) int64 { return a + b }
	var one mat4
	for j := range 4 {
		one[j][j] = 1
	}
	cases := []struct {
		name string
		run  func() any
	}{
		{"op=sum/impl=sequential", func() any {
			out := make([]int64, len(ints))
			var acc int64
			for i, x := range ints {
				acc += x
				out[i] = acc
			}
			return out
		}},
		{"op=sum/impl=sequential-func", func() any { return seqScan(ints, 0, add) }},
		{"op=sum/impl=pfor", func() any { return pfor.Scan(ints, 0, add) }},
		{"op=mat4/impl=sequential", func() any {
			out := make([]mat4, len(mats))
			acc := one
			for i, x := range mats {
				acc = mul4(acc, x)
				out[i] = acc
			}
			return out
		}},
		{"op=mat4/impl=sequential-func", func() any { return seqScan(mats, one, mul4) }},
		{"op=mat4/impl=pfor", func() any { return pfor.Scan(mats, one, mul4) }},
	}
	for _, c := range cases {
		scanSink = c.run()
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				scanSink = c.run()
			}
		})
	}
}

// seqScan is the sequential scan calling op through a func value.
//
//go:noinline
func seqScan[T any](in []T, identity T, op func(T, T) T) []T {
	out := make([]T, len(in))
	acc := identity
	for i, x := range in {
		acc = op(acc, x)
		out[i] = acc
	}
	return out
}
