//go:build !race

// The race detector's sync.Pool drops a random share of what is put in it,
// so the reuse of jobs and runs, and with it these counts, holds only
// without it.

package pfor_test

import (
	"runtime"
	"testing"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// TestCallsAllocateAtMostTwice: a 2-worker call over 1,000 items, called
// back to back, allocates at most twice per call with every partitioner,
// however many items, chunks and steals it has.
func TestCallsAllocateAtMostTwice(t *testing.T) {
	out := make([]float64, 1000)
	body := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] += float64(i)
		}
	}
	for _, p := range []partition.Partitioner{
		partition.Static(), partition.Dynamic(4), partition.Guided(1), partition.Stealing(), partition.Auto(),
	} {
		opts := []pfor.Option{pfor.WithWorkers(2), pfor.WithPartitioner(p)}
		call := func() { pfor.Chunks(0, len(out), body, opts...) }
		call()
		if got := testing.AllocsPerRun(200, call); got > 2 {
			t.Errorf("Chunks with %s on 2 workers: %v allocations per call; want at most 2", p.Name(), got)
		}
	}
}

// TestScanAllocatesPerCall: Scan allocates about as many objects for 24
// tiles as for 2, with every partitioner: its result and O(1) besides, as
// its doc says, not an object per tile. (The longer scan's result is large
// enough to start a garbage collection, which empties the pools of jobs
// and runs: a few more objects, fewer than one per tile.) It counts on two
// processors, where two workers need no extra helper goroutines (calls
// wider than the pool start some, which allocate), so not with
// testing.AllocsPerRun, which runs on one.
func TestScanAllocatesPerCall(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	in := make([]int64, 24<<16)
	add := func(a, b int64) int64 { return a + b }
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(1), partition.Stealing(), partition.Auto()} {
		opts := []pfor.Option{pfor.WithWorkers(2), pfor.WithPartitioner(p)}
		allocs := func(n int) float64 {
			const runs = 20
			pfor.Scan(in[:n], 0, add, opts...)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range runs {
				pfor.Scan(in[:n], 0, add, opts...)
			}
			runtime.ReadMemStats(&after)
			return float64(after.Mallocs-before.Mallocs) / runs
		}
		if short, long := allocs(2<<16), allocs(len(in)); long > short+8 {
			t.Errorf("Scan with %s on 2 workers: %v allocations for %d elements, %v for %d; want at most 8 more", p.Name(), long, len(in), short, 2<<16)
		}
	}
}
