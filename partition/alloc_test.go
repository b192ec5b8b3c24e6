//go:build !race

// The race detector's sync.Pool drops a random share of what is put in it,
// so run reuse, and with it these counts, holds only without it.

package partition_test

import (
	"testing"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// TestRunsDoNotAllocate: a run started, driven to the end and released as
// pfor does, 2 and 8 workers taking turns so that workers steal, allocates
// nothing once a released run of its kind is there to reuse: not per run,
// not per item, not per steal.
func TestRunsDoNotAllocate(t *testing.T) {
	for _, p := range []partition.Partitioner{
		partition.Static(), partition.Dynamic(4), partition.Guided(1),
		partition.Stealing(), partition.Auto(),
	} {
		for _, workers := range []int{2, 8} {
			var steals int64
			stealing := false
			drive := func() {
				run := p.Start(0, 1000, workers)
				for live := workers; live > 0; {
					live = 0
					for w := range workers {
						// Worker 0 takes one batch per round, the others
						// four, so that they run out first and steal.
						for range 1 + 3*min(1, w) {
							if _, _, ok := run.Next(w); ok {
								live++
							}
						}
					}
				}
				if sr, ok := run.(partproto.StealingRun); ok {
					stealing = true
					for w := range workers {
						steals += sr.Counts(w).Steals
					}
				}
				if r, ok := run.(partproto.Releaser); ok {
					r.Release()
				}
			}
			drive()
			if got := testing.AllocsPerRun(50, drive); got != 0 {
				t.Errorf("%s, %d workers: a run allocates %v times; want 0", p.Name(), workers, got)
			}
			if stealing && steals == 0 {
				t.Errorf("%s, %d workers: no steal in 51 runs; want runs that steal", p.Name(), workers)
			}
		}
	}
}
