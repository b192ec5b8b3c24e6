//go:build !race

// The race detector's sync.Pool drops a random share of what is put in it,
// so the reuse of jobs and runs, and with it these counts, holds only
// without it.

package pfor_test

import (
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
