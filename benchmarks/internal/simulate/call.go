package simulate

import (
	"time"

	"github.com/stealkit/stealkit/internal/workload"
)

// CalibrateCall returns what a call of inst's body costs beyond its items, the CallNs of the
// workload's Machine: one goroutine runs a sample of the items once as one Chunk and once one
// Chunk per item, through a function value as pfor calls a body, in callRounds rounds that
// alternate which comes first, and the figure of a round is the difference over the items.
// It counts, as RestartNs does, if at least three quarters of the rounds found the calls
// dearer (see excessOver), and is 0 otherwise.
//
// A call costs more than the jump into the body: the loop over a range of a few items ends in
// a branch the predictor misses, and the work of the next range does not start until the call
// returns. On tiny it is 6.7 to 10.6 ns (the ten runs of RESULTS.md), and a pass in
// 3-item Chunk calls took 32.1 µs against 29.3 in one call (one goroutine, the medians of 41
// interleaved rounds); count-based stealing hands tiny's workers 3-item ranges, 167 of them a
// call each. pfor's own work per range (its loop around Next and the body's wrapper: about 25 ns
// a range with an empty body on the project's AMD VM, less with a body the processor overlaps
// it with) is not in the figure.
func CalibrateCall(inst workload.Instance) float64 {
	defer inst.Reset()
	body := inst.Chunk // a function value, as pfor's body
	n := inst.Len()
	// The sample: as many items as take about callPass in one call, at least one.
	items := min(n, 64)
	for items < n {
		t := time.Now()
		body(0, items)
		if time.Since(t) >= callPass {
			break
		}
		items = min(n, 2*items)
	}
	if items == 0 {
		return 0
	}
	one := func() time.Duration {
		t := time.Now()
		body(0, items)
		return time.Since(t)
	}
	each := func() time.Duration {
		t := time.Now()
		for i := range items {
			body(i, i+1)
		}
		return time.Since(t)
	}
	figures := make([]float64, 0, callRounds)
	for r := range callRounds {
		var a, b time.Duration
		if r%2 == 0 {
			a, b = each(), one()
		} else {
			b, a = one(), each()
		}
		figures = append(figures, float64((a-b).Nanoseconds())/float64(items))
	}
	return excessOver(figures, 0)
}

// callPass is about how long the sample of CalibrateCall takes in one call, and callRounds
// how many rounds it makes.
const (
	callPass   = 200 * time.Microsecond
	callRounds = 21
)
