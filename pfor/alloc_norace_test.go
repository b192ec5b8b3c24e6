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

// TestCallsDoNotAllocate: a 2-worker call over 1,000 items, called back to
// back, allocates nothing with every partitioner, however many items,
// chunks and steals it has (a job and a run come from pools, which a
// collection empties now and then: hence an average over many calls).
func TestCallsDoNotAllocate(t *testing.T) {
	out := make([]float64, 1000)
	body := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] += float64(i)
		}
	}
	each := func(i int) { out[i] += float64(i) }
	for _, p := range []partition.Partitioner{
		partition.Static(), partition.Dynamic(4), partition.Guided(1), partition.Stealing(), partition.Auto(),
	} {
		opts := []pfor.Option{pfor.WithWorkers(2), pfor.WithPartitioner(p)}
		for _, c := range []struct {
			name string
			call func()
		}{
			{"Chunks", func() { pfor.Chunks(0, len(out), body, opts...) }},
			{"Range", func() { pfor.Range(0, len(out), each, opts...) }},
		} {
			c.call()
			if got := testing.AllocsPerRun(500, c.call); got > 0 {
				t.Errorf("%s with %s on 2 workers: %v allocations per call; want 0", c.name, p.Name(), got)
			}
		}
	}
}
