package partition_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// BenchmarkNext measures what a take costs a worker: one goroutine drains
// 1-worker runs of 2^16 items, with no body between the Next calls.
// ns/next is the time per Next, the run's Start included.
func BenchmarkNext(b *testing.B) {
	for _, tc := range []struct {
		name string
		p    partition.Partitioner
	}{
		{"dynamic", partition.Dynamic(64)},
		{"stealing", partition.Stealing()},
		{"stealing-grain1", partition.Stealing().(partition.Grained).WithGrain(1)},
		{"auto", partition.Auto()},
	} {
		b.Run("partitioner="+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			nexts := 0
			for b.Loop() {
				run := tc.p.Start(0, 1<<16, 1)
				for _, _, ok := run.Next(0); ok; _, _, ok = run.Next(0) {
					nexts++
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(nexts, 1)), "ns/next")
		})
	}
}

// BenchmarkStart measures what starting a run costs a parallel call: one
// goroutine starts a run of 1,000 items for 2 or 8 workers, takes each
// worker's first range, and releases the run as pfor does once its workers
// have returned. allocs/op is the run's allocations per call.
func BenchmarkStart(b *testing.B) {
	for _, tc := range []struct {
		name string
		p    partition.Partitioner
	}{
		{"static", partition.Static()},
		{"dynamic", partition.Dynamic(64)},
		{"guided", partition.Guided(1)},
		{"stealing", partition.Stealing()},
		{"auto", partition.Auto()},
	} {
		for _, workers := range []int{2, 8} {
			b.Run(fmt.Sprintf("partitioner=%s/workers=%d", tc.name, workers), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					run := tc.p.Start(0, 1000, workers)
					for w := range workers {
						run.Next(w)
					}
					if r, ok := run.(interface{ Release() }); ok {
						r.Release()
					}
				}
			})
		}
	}
}

// BenchmarkShortCall measures what the partitioner costs a short parallel
// call: one goroutine drives both workers of a run of 1,000 items, as pfor
// drives each (pieces of Piece items with a Hungry between them where Quiet
// allows no skip), with no body, and releases the run. Stealing and Auto read a virtual clock that
// moves 13 ns an item, 6 ns a piece and 40 ns a Next, about a tiny loop's
// costs, so that their batches are those of such a call and the
// instructions per op are the same run after run: run it under valgrind
// --tool=callgrind to compare them. nexts/op and pieces/op count the calls
// of Next and of the body, clocks/op the readings of the clock.
func BenchmarkShortCall(b *testing.B) {
	var now, clocks int64
	clock := func() int64 { clocks++; return now }
	for _, tc := range []struct {
		name string
		p    partition.Partitioner
	}{
		{"static", partition.Static()},
		{"stealing", stealingWith(partproto.Options{Clock: clock})},
		{"auto", stealingWith(partproto.Options{Adaptive: true, Clock: clock})},
	} {
		b.Run("partitioner="+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			nexts, pieces := 0, 0
			clocks = 0
			for b.Loop() {
				run := tc.p.Start(0, 1000, 2)
				split, _ := run.(partproto.SplittingRun)
				for w := range 2 {
					for lo, hi, ok := run.Next(w); ok; lo, hi, ok = run.Next(w) {
						nexts++
						now += 40
						step := hi - lo
						var word *atomic.Uint64
						var calm uint64
						if split != nil && hi-lo >= 2 {
							step = max(1, split.Piece(w))
							word, calm = split.Quiet(w)
						}
						for lo < hi {
							end := lo + min(step, hi-lo)
							pieces++
							now += int64(end-lo)*13 + 6
							if lo = end; lo == hi || hi-lo > step && word != nil && word.Load() == calm {
								continue // as pfor, which skips Hungry where Quiet allows
							}
							if split.Hungry(w, lo) {
								split.GiveBack(w, lo)
								break
							}
						}
					}
					nexts++ // the Next that found nothing
				}
				if r, ok := run.(partproto.Releaser); ok {
					r.Release()
				}
			}
			b.ReportMetric(float64(nexts)/float64(b.N), "nexts/op")
			b.ReportMetric(float64(pieces)/float64(b.N), "pieces/op")
			b.ReportMetric(float64(clocks)/float64(b.N), "clocks/op")
		})
	}
}
