package stealrange

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkTryTakeOne: the owner taking one index at a time, uncontended.
func BenchmarkTryTakeOne(b *testing.B) {
	b.ReportAllocs()
	r := New(0, math.MaxInt)
	for b.Loop() {
		if _, ok := r.TryTakeOne(); !ok {
			b.Fatal("range exhausted")
		}
	}
}

// BenchmarkTryTake: the owner taking batches of k; ns/item is the amortized
// cost per index handed out.
func BenchmarkTryTake(b *testing.B) {
	for _, k := range []int{1, 16, 256, 4096} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			r := New(0, math.MaxInt)
			for b.Loop() {
				if _, _, ok := r.TryTake(k); !ok {
					b.Fatal("range exhausted")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(k), "ns/item")
		})
	}
}

// BenchmarkTrySteal: one steal attempt per op. uncontended: a lone thief
// (each steal takes a quarter of what is left, so the range is Reset about
// every 150 steals on 64-bit, included in the cost). contended: the benchmark goroutine
// steals while another goroutine owns the range and drains it in batches of
// 64, refilling it when it runs dry; success/op is the fraction of attempts
// that took something.
func BenchmarkTrySteal(b *testing.B) {
	b.Run("contention=none", func(b *testing.B) {
		b.ReportAllocs()
		r := New(0, math.MaxInt/2)
		for b.Loop() {
			if _, _, ok := r.TrySteal(); !ok {
				r.Reset(0, math.MaxInt/2)
			}
		}
	})
	b.Run("contention=owner", func(b *testing.B) {
		b.ReportAllocs()
		r := New(0, 1<<20)
		var stop atomic.Bool
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // the owner
			defer wg.Done()
			for !stop.Load() {
				if _, _, ok := r.TryTake(64); !ok {
					r.Reset(0, 1<<20)
				}
			}
		}()
		wins := 0
		for b.Loop() {
			if _, _, ok := r.TrySteal(); ok {
				wins++
			}
		}
		stop.Store(true)
		wg.Wait()
		b.ReportMetric(float64(wins)/float64(b.N), "success/op")
	})
}

// BenchmarkStealFrom: one StealFrom per op by a lone thief, which owns
// each chunk it steals; when nothing is left to steal, both Ranges are
// reused (about every 150 steals on 64-bit, included in the cost). Once the
// thief's blocks hold an epoch's spans, a steal allocates nothing, where
// TrySteal allocates its span.
func BenchmarkStealFrom(b *testing.B) {
	b.ReportAllocs()
	var victim, thief Range
	victim.Reuse(0, math.MaxInt/2)
	for b.Loop() {
		if _, _, ok := thief.StealFrom(&victim); !ok {
			victim.Reuse(0, math.MaxInt/2)
			thief.Reuse(0, 0)
		}
	}
}

// BenchmarkTryTakeParallelOwners: every goroutine owns its own Range, so
// this measures false sharing between Ranges allocated side by side.
func BenchmarkTryTakeParallelOwners(b *testing.B) {
	b.ReportAllocs()
	ranges := make([]Range, 64)
	for i := range ranges {
		ranges[i].Reset(0, math.MaxInt)
	}
	var next atomic.Int32
	b.RunParallel(func(pb *testing.PB) {
		r := &ranges[next.Add(1)-1]
		for pb.Next() {
			r.TryTakeOne()
		}
	})
}
