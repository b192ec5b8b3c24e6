package partition_test

import (
	"fmt"
	"testing"

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
