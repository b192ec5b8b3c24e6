package simulate_test

import (
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// TestIdleWorkersPayEmptyNextsAndPolls: a Next that finds nothing costs EmptyNs, not a take,
// and a poll costs PollNs, its Next included, not a take on top. Worker 0 gets both items,
// worker 1 nothing:
//   - worker 1 polls while its Idle says so, three times, then stops: the first poll waits
//     for worker 0's range to end, so the call ends after the take, the items, two polls and
//     an empty Next. A Model without PollNs charges legacyPollNs, 200 ns, a poll.
//   - the helper comes after the call's work is done: the caller runs slot 0, finds nothing,
//     claims slot 1 and finds nothing there, two empty Nexts after the take and the items.
func TestIdleWorkersPayEmptyNextsAndPolls(t *testing.T) {
	c := simulate.Costs{0, 5000, 10000}
	for _, tc := range []struct {
		pollNs, forkNs float64
		polls          int
		want           float64
	}{
		{pollNs: 100, polls: 3, want: 1000 + 10000 + 2*100 + 10},
		{pollNs: 0, polls: 3, want: 1000 + 10000 + 2*200 + 10},
		{pollNs: 100, forkNs: 1e9, want: 1000 + 10000 + 2*10},
	} {
		m := simulate.Model{UnitNs: 1, TakeNs: 1000, EmptyNs: 10, PollNs: tc.pollNs, ForkNs: tc.forkNs}
		r := simulate.Run(c, scriptedPartitioner(tc.polls), 2, m)
		if r.MakespanNs != tc.want {
			t.Errorf("take 1000, empty Next 10, poll %g, helper at %g, %d polls: makespan %g; want %g", tc.pollNs, tc.forkNs, tc.polls, r.MakespanNs, tc.want)
		}
	}
}

// TestMachineModelIdleCosts: Machine.Model charges the calibrated empty Next and poll, and,
// for a calibration recorded without them, the take for an empty Next and no PollNs (Run
// then charges legacyPollNs).
func TestMachineModelIdleCosts(t *testing.T) {
	old := simulate.Machine{TakeNs: map[string][]float64{"auto": {40, 60}}}
	if m := old.Model("auto", 2, 1); m.TakeNs != 60 || m.EmptyNs != 60 || m.PollNs != 0 {
		t.Errorf("Model(auto, 2) of a calibration without empty Nexts or polls: take %g, empty %g, poll %g; want 60, 60, 0", m.TakeNs, m.EmptyNs, m.PollNs)
	}
	cal := old
	cal.EmptyNs, cal.PollNs = map[string]float64{"auto": 9}, map[string]float64{"auto": 80}
	if m := cal.Model("auto", 2, 1); m.TakeNs != 60 || m.EmptyNs != 9 || m.PollNs != 80 {
		t.Errorf("Model(auto, 2) with empty Next 9 and poll 80: take %g, empty %g, poll %g; want 60, 9, 80", m.TakeNs, m.EmptyNs, m.PollNs)
	}
}

// scriptedPartitioner's runs hand worker 0 the whole range as one range of one piece, and
// worker 1 nothing; worker 1's Idle reports true polls times, then false.
func scriptedPartitioner(polls int) impls.Partitioner {
	return impls.Partitioner{Name: "scripted", New: func(func() int64) partition.Partitioner { return scripted{polls} }}
}

type scripted struct{ polls int }

func (scripted) Name() string { return "scripted" }

func (p scripted) Start(lo, hi, workers int) partition.Run {
	return &scriptedRun{lo: lo, hi: hi, polls: p.polls}
}

type scriptedRun struct {
	lo, hi, polls int
	given         bool
}

var _ partproto.SplittingRun = (*scriptedRun)(nil)

func (r *scriptedRun) Next(w int) (lo, hi int, ok bool) {
	if w != 0 || r.given {
		return 0, 0, false
	}
	r.given = true
	return r.lo, r.hi, true
}

func (r *scriptedRun) Idle(w int) bool {
	if w == 0 || r.polls == 0 {
		return false
	}
	r.polls--
	return true
}

func (r *scriptedRun) Piece(int) int                    { return r.hi - r.lo }
func (*scriptedRun) Hungry(int, int) bool               { return false }
func (*scriptedRun) GiveBack(int, int)                  {}
func (*scriptedRun) Quiet(int) (*atomic.Uint64, uint64) { return nil, 0 }
func (*scriptedRun) Counts(int) partproto.Counts        { return partproto.Counts{} }
func (*scriptedRun) Stolen(int) bool                    { return false }
