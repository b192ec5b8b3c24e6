package simulate

import "testing"

// TestForkJoinBatches: each batch of timed calls adds one median per figure, all positive,
// and a batch spoiled by a slow stretch of the machine does not move the result.
func TestForkJoinBatches(t *testing.T) {
	var fj forkJoinTimes
	for range 3 {
		fj.batch()
	}
	if len(fj.starts) != 3 || len(fj.forks) != 3 || len(fj.joins) != 3 {
		t.Fatalf("3 batches gave %d, %d, %d medians; want 3 each", len(fj.starts), len(fj.forks), len(fj.joins))
	}
	for i := range 3 {
		if !(fj.starts[i] > 0 && fj.forks[i] > 0 && fj.joins[i] > 0) {
			t.Errorf("batch %d: start %g, fork %g, join %g; want all positive", i, fj.starts[i], fj.forks[i], fj.joins[i])
		}
	}
	spoiled := forkJoinTimes{
		starts: []float64{1000, 7700, 1100, 990, 1050},
		forks:  []float64{1900, 64_100, 2000, 1800, 1950},
		joins:  []float64{800, 590, 850, 900, 870},
	}
	if s, f, j := spoiled.medians(); s != 1050 || f != 1950 || j != 850 {
		t.Errorf("medians with one spoiled batch = %g, %g, %g; want 1050, 1950, 850", s, f, j)
	}
}
