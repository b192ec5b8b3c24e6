package simulate

import (
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// TestIdleTrials: the stealing partitioners' runs split and their polls can be timed (polls
// panics if its worker is not idle); the others' runs do not split. Every trial times
// idleCalls calls.
func TestIdleTrials(t *testing.T) {
	for _, p := range impls.Partitioners() {
		if d, calls := emptyNexts(p); d <= 0 || calls != idleCalls {
			t.Errorf("emptyNexts(%s) = %v over %g calls; want a positive time over %d", p.Name, d, calls, idleCalls)
		}
		stealing := p.Name == "stealing" || p.Name == "auto"
		if splits(p) != stealing {
			t.Errorf("splits(%s) = %v; want %v", p.Name, !stealing, stealing)
		}
		if stealing {
			if d, calls := polls(p); d <= 0 || calls != idleCalls {
				t.Errorf("polls(%s) = %v over %g calls; want a positive time over %d", p.Name, d, calls, idleCalls)
			}
		}
	}
}

// TestIdleTrialsFindNothing: the Nexts that the trials time find nothing and attempt no
// steal, and the polls' worker stays idle.
func TestIdleTrialsFindNothing(t *testing.T) {
	for _, p := range impls.Partitioners() {
		run := drained(p)
		for range 3 {
			if lo, hi, ok := run.Next(0); ok {
				t.Errorf("%s: a drained run's Next(0) = [%d, %d); want nothing", p.Name, lo, hi)
			}
		}
		if sr, ok := run.(partproto.StealingRun); ok && sr.Counts(0).FailedSteals != 0 {
			t.Errorf("%s: a drained run's Nexts attempted %d steals; want none", p.Name, sr.Counts(0).FailedSteals)
		}
		if !splits(p) {
			continue
		}
		h := held(p)
		before := h.Counts(0)
		for range 3 {
			if lo, hi, ok := h.Next(0); ok || !h.Idle(0) {
				t.Errorf("%s: a held run's Next(0) = [%d, %d), %v, then Idle %v; want nothing, and idle", p.Name, lo, hi, ok, h.Idle(0))
			}
		}
		if after := h.Counts(0); after != before {
			t.Errorf("%s: a held run's Nexts moved worker 0's counts from %+v to %+v; want no steal attempted", p.Name, before, after)
		}
	}
}

// TestTakesLeaveOutEmptyNexts: a take is the time of the Next loops less the empty Nexts, over
// the Nexts that handed out a range. Here, on a fake clock, a run's one range costs
// slowRangeNs and its empty Next slowEmptyNs: less slowEmptyNs for it, the take is
// slowRangeNs, where averaged in it would be half of both.
func TestTakesLeaveOutEmptyNexts(t *testing.T) {
	clock := &fakeClock{}
	drainClock = clock.now
	t.Cleanup(func() { drainClock = time.Now })
	p := impls.Partitioner{Name: "slowempty", New: func(func() int64) partition.Partitioner { return slowEmpty{clock} }}
	if take := takes(p, 10, 1, float64(slowEmptyNs)); len(take) != 1 || take[0] != float64(slowRangeNs) {
		t.Errorf("takes of a range of %v and an empty Next of %v, less that Next: %v ns; want one take of %d", slowRangeNs, slowEmptyNs, take, slowRangeNs.Nanoseconds())
	}
}

// slowEmpty's runs hand each worker its whole range at its first Next, which moves clock on
// by slowRangeNs; every later Next moves it on by slowEmptyNs and finds nothing.
type slowEmpty struct{ clock *fakeClock }

const slowEmptyNs, slowRangeNs = 200 * time.Microsecond, 10 * time.Microsecond

func (slowEmpty) Name() string { return "slowempty" }

func (p slowEmpty) Start(lo, hi, workers int) partition.Run {
	return &slowEmptyRun{lo: lo, hi: hi, given: make([]bool, workers), clock: p.clock}
}

type slowEmptyRun struct {
	lo, hi int
	given  []bool
	clock  *fakeClock
}

func (r *slowEmptyRun) Next(w int) (lo, hi int, ok bool) {
	if !r.given[w] {
		r.given[w] = true
		r.clock.advance(slowRangeNs)
		return r.lo, r.hi, true
	}
	r.clock.advance(slowEmptyNs)
	return 0, 0, false
}
