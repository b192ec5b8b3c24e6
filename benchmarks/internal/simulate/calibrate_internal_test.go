package simulate

import (
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/internal/workload"
)

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

// TestRestartFrom: a restart counts when the trials agree that a chunk costs more than its
// take: saxpy's figures all exceed it; a workload whose chunk times are noise of either sign
// (mandelbrot's rows) gets 0, and so does one with no trials.
func TestRestartFrom(t *testing.T) {
	const take = 30
	for _, tc := range []struct {
		name    string
		figures []float64
		want    float64
	}{
		{"streaming", []float64{230, 180, 260, 210, 190, 240}, 210 - take},
		{"one trial of six at the take", []float64{230, 180, 260, 30, 190, 240}, 190 - take},
		{"noise", []float64{-900, 1500, 40, -200, 700, 20}, 0},
		{"two of six at or under the take", []float64{230, 180, 260, 30, 10, 240}, 0},
		{"none", nil, 0},
	} {
		if got := excessOver(tc.figures, take); got != tc.want {
			t.Errorf("%s: excessOver(%v, %d) = %g; want %g", tc.name, tc.figures, take, got, tc.want)
		}
	}
}

// TestCalibratorForkJoin: a workload's fork-join figures come from the batches made during
// its rounds, none before the first, and none with a single core.
func TestCalibratorForkJoin(t *testing.T) {
	w, _ := workloads.ByName("uniform")
	inst := w.New(100)
	cal := NewCalibrator(inst, PrefixCosts(inst), 1, 2)
	if _, _, _, ok := cal.ForkJoin(); ok {
		t.Errorf("ForkJoin before any batch reports a figure")
	}
	cal.ForkJoinBatch()
	cal.ForkJoinBatch()
	if start, fork, join, ok := cal.ForkJoin(); !ok || !(start > 0 && fork > 0 && join > 0) {
		t.Errorf("ForkJoin after 2 batches = %g, %g, %g, %v; want positive figures", start, fork, join, ok)
	}
	// Cold calls are flagged, timed, and do not count in the medians.
	cold := cal.ColdCalls()
	if len(cold) != coldCalls {
		t.Fatalf("ColdCalls made %d calls; want %d", len(cold), coldCalls)
	}
	for _, c := range cold {
		if !c.Cold || !(c.StartNs > 0 && c.ForkNs > 0 && c.JoinNs > 0) {
			t.Errorf("cold call %+v; want flagged cold, with positive times", c)
		}
	}
	if len(cal.fj.forks) != 2 {
		t.Errorf("%d batch medians after 2 batches and the cold calls; want 2", len(cal.fj.forks))
	}
	one := NewCalibrator(inst, PrefixCosts(inst), 1, 1)
	one.ForkJoinBatch()
	if _, _, _, ok := one.ForkJoin(); ok {
		t.Errorf("ForkJoin with 1 proc reports a figure: pfor runs 1 worker inline")
	}
	if c := one.ColdCalls(); c != nil {
		t.Errorf("ColdCalls with 1 proc = %v; want none", c)
	}
}

// TestCalibrateCall: a workload whose every Chunk call waits 2 µs, whatever its length, costs
// 2 µs a call; one whose Chunk returns at once, next to nothing (37 to 49 ns with the race
// detector, which instruments each call).
func TestCalibrateCall(t *testing.T) {
	const each = 2 * time.Microsecond
	if got := CalibrateCall(&chunkCost{n: 1000, each: each}); got < 0.9*float64(each) || got > 2*float64(each) {
		t.Errorf("CalibrateCall with %v a call = %.0f ns; want about %d", each, got, each.Nanoseconds())
	}
	if got := CalibrateCall(&chunkCost{n: 1000}); got > 400 {
		t.Errorf("CalibrateCall with free calls = %.0f ns; want next to nothing", got)
	}
	if got := CalibrateCall(&chunkCost{}); got != 0 {
		t.Errorf("CalibrateCall with no items = %g; want 0", got)
	}
}

// chunkCost is an instance of n items whose Chunk waits each, whatever its length, or returns
// at once if each is 0.
type chunkCost struct {
	workload.Instance
	n    int
	each time.Duration
}

func (c *chunkCost) Len() int { return c.n }
func (c *chunkCost) Reset()   {}
func (c *chunkCost) Chunk(lo, hi int) {
	if c.each == 0 {
		return
	}
	for t := time.Now(); time.Since(t) < c.each; {
	}
}
