package casestudy

import (
	"fmt"
	"slices"
	"testing"
)

// The case studies as testing.B benchmarks, named for benchstat. Each
// reports tasks/ms; the peak stored is in cmd/casestudy's table, from an
// untimed counting run.

func BenchmarkMinimax(b *testing.B) {
	for _, look := range []int{4, 5, 6, 7} {
		var tr Tracker
		Minimax(Sequential, look, &tr)
		tr.Done()
		for _, s := range append([]string{Sequential}, Schemes...) {
			b.Run(fmt.Sprintf("scheme=%s/lookahead=%d", s, look), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Minimax(s, look, nil)
				}
				b.ReportMetric(float64(tr.Tasks)/(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N)), "tasks/ms")
			})
		}
	}
}

func BenchmarkOctree(b *testing.B) {
	for _, n := range []int{100_000, 500_000, 2_000_000} {
		src := Particles(n, 1)
		var tr Tracker
		Octree(Sequential, slices.Clone(src), &tr)
		tr.Done()
		ps := make([]Particle, n)
		for _, s := range append([]string{Sequential}, Schemes...) {
			b.Run(fmt.Sprintf("scheme=%s/particles=%d", s, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					copy(ps, src)
					b.StartTimer()
					Octree(s, ps, nil)
				}
				b.ReportMetric(float64(tr.Tasks)/(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N)), "tasks/ms")
			})
		}
	}
}

func BenchmarkFib(b *testing.B) {
	const n = 32
	b.Run(fmt.Sprintf("scheme=%s/n=%d", Sequential, n), func(b *testing.B) {
		for b.Loop() {
			Fib(Sequential, n, 0)
		}
	})
	for _, cut := range []int{8, 10, 12} {
		for _, s := range []string{Steal, Goroutine} {
			b.Run(fmt.Sprintf("scheme=%s/n=%d/cutoff=%d", s, n, cut), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Fib(s, n, cut)
				}
				b.ReportMetric(float64(FibForks(n, cut)), "forks/op")
			})
		}
	}
}

func BenchmarkSort(b *testing.B) {
	const n = 10_000_000
	src := SortInput(n)
	x := make([]int64, n)
	for _, s := range []string{Sequential, Steal} {
		b.Run(fmt.Sprintf("scheme=%s/n=%d", s, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				copy(x, src)
				b.StartTimer()
				Sort(s, x)
			}
		})
	}
}
