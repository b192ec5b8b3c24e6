package textbook

import (
	"fmt"
	"testing"
)

// The matrix examples as testing.B benchmarks, named for benchstat, each
// family with its sequential baseline:
//
//	go test -run '^$' -bench . ./textbook/ | tee new.txt
//	benchstat -col /variant new.txt

func BenchmarkMatMul(b *testing.B) {
	for _, n := range []int{128, 256} {
		a, bt := Random(n, 1), Random(n, 2).Transpose()
		c := New(n)
		for _, v := range append([]string{MulSeq}, MulVariants...) {
			b.Run(fmt.Sprintf("variant=%s/n=%d", v, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Mul(v, c, a, bt)
				}
			})
		}
	}
}

func BenchmarkMatAdd(b *testing.B) {
	for _, n := range []int{1024, 2048} {
		a, m := Random(n, 1), Random(n, 2)
		c := New(n)
		for _, v := range []string{AddSeq, AddRange} {
			b.Run(fmt.Sprintf("variant=%s/n=%d", v, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Add(v, c, a, m, 0)
				}
			})
		}
		for _, base := range []int{16, 64, 256} {
			b.Run(fmt.Sprintf("variant=%s/base=%d/n=%d", AddFuture, base, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Add(AddFuture, c, a, m, base)
				}
				b.ReportMetric(float64(AddTasks(n, base)), "futures/op")
			})
		}
	}
}
