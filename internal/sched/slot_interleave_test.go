package sched

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/stepsched"
)

// Exhaustive interleavings of a slot's sleep and wake protocol.
//
// Every step of runSlot and wakeSleeper that another slot can observe calls
// stepHook first (step.go). Here the hook is a stepsched.Sched's, so the
// slots of a real job run one step at a time in an order a stepsched.Search
// chooses, and every interleaving is run. The job's run is a scripted
// partproto.SplittingRun: one slot, the holder, takes ranges one at a time
// and holds each until its next Next; the others find no work, and Idle
// tells them to wait while the holder holds a range, as a stealing run does
// while a worker's range is overdue. A slot about to take stepSleep runs only
// when a token is there for it: a state where every live slot waits so is a
// lost wake-up, and the test fails there, where the real pool would hang.

// scriptedRun is the job's run: see above. Its fields are touched only by
// the thread running, one at a time.
type scriptedRun struct {
	holder  int  // the slot that takes ranges
	ranges  int  // ranges it takes, [i, i+1) each
	taken   int  // ranges taken so far
	holding bool // the holder holds a range: the others' Idle is true
}

func (r *scriptedRun) Next(w int) (lo, hi int, ok bool) {
	if w != r.holder {
		return 0, 0, false
	}
	r.holding = r.taken < r.ranges
	if !r.holding {
		return 0, 0, false
	}
	r.taken++
	return r.taken - 1, r.taken, true
}

func (r *scriptedRun) Idle(w int) bool                    { return r.holding }
func (r *scriptedRun) Counts(int) partproto.Counts        { return partproto.Counts{} }
func (r *scriptedRun) Stolen(int) bool                    { return false }
func (r *scriptedRun) Piece(int) int                      { return 1 }
func (r *scriptedRun) Hungry(int, int) bool               { return false }
func (r *scriptedRun) GiveBack(int, int)                  {}
func (r *scriptedRun) Quiet(int) (*atomic.Uint64, uint64) { return nil, 0 }

// bodyFunc is a Body from a function.
type bodyFunc func(slot, lo, hi int) error

func (f bodyFunc) Call(slot, lo, hi int) error { return f(slot, lo, hi) }

// A slotScenario is a job of 1+idlers slots whose holder takes ranges.
type slotScenario struct {
	name   string
	idlers int // slots 1..idlers find no work; slot 0 is the holder
	ranges int
	polls  int // idlePolls while it runs
}

var slotScenarios = []slotScenario{
	{name: "one idler, one range", idlers: 1, ranges: 1},
	{name: "one idler, two ranges", idlers: 1, ranges: 2},
	{name: "one idler polls first", idlers: 1, ranges: 1, polls: 1},
}

// stepAccess names the word a step accesses and whether it writes it: the
// run (Next changes the holder's state, Idle reads it), sleepers, tokens, or
// finished (with wake, on which the finish that completes it may send).
func stepAccess(k stepKind) (word int, write bool) {
	switch k {
	case stepNext:
		return 0, true
	case stepIdle:
		return 0, false
	case stepCount, stepUncount:
		return 1, true
	case stepWakeLoad:
		return 1, false
	case stepSleep, stepWakeToken:
		return 2, true
	case stepJoinLoad:
		return 3, false
	default: // stepFinish, stepJoinPark, stepJoinBlock: finished and wake
		return 3, true
	}
}

// dependentSteps reports whether steps of kinds a and b by different slots
// may not be swapped: they access one word and one of them writes it.
func dependentSteps(a, b stepKind) bool {
	wa, xa := stepAccess(a)
	wb, xb := stepAccess(b)
	return wa == wb && (xa || xb)
}

// exploreSlots runs every interleaving of sc and returns the first
// violation, and the number of interleavings run.
func exploreSlots(sc slotScenario) (runs int, err error) {
	defer func(saved int) { idlePolls = saved }(idlePolls)
	idlePolls = sc.polls
	x := stepsched.Search[stepKind]{MaxDepth: 300, Reduce: true, Dependent: dependentSteps}
	err = x.Run(func() error {
		if err := runSlotsOnce(sc, &x); err != nil {
			return fmt.Errorf("%s: %w", sc.name, err)
		}
		runs++
		return nil
	})
	return runs, err
}

// runSlotsOnce runs sc along x's recorded path and extends it to the end.
func runSlotsOnce(sc slotScenario, x *stepsched.Search[stepKind]) (err error) {
	slots := 1 + sc.idlers
	run := &scriptedRun{holder: 0, ranges: sc.ranges}
	ran := 0
	j := &Job{Slots: int32(slots), Run: run, split: run}
	j.Init(bodyFunc(func(_, lo, hi int) error { ran += hi - lo; return nil }), nil)
	s := stepsched.New[stepKind](slots)
	stepHook = s.Hook
	var path strings.Builder
	defer func() {
		s.Close()
		stepHook = nil
		if err != nil {
			err = fmt.Errorf("%v\nschedule (slot:step): %s", err, path.String())
		}
	}()
	for th := range slots {
		if err := s.Start(th, func() { j.runSlot(th) }); err != nil {
			return err
		}
	}
	for depth := 0; s.Live() != 0; depth++ {
		live, next := s.Live(), s.Next()
		runnable := live
		for th := range slots {
			if next[th] == stepSleep && j.tokens == 0 { // it would block: not runnable now
				runnable &^= 1 << th
			}
		}
		if runnable == 0 {
			return fmt.Errorf("slots %08b sleep with no token to wake them, and no slot is left to add one: a lost wake-up", live)
		}
		n, err := x.Step(depth, runnable, next)
		if n == nil {
			return err
		}
		fmt.Fprintf(&path, "%d:%d ", n.Chosen, n.Next[n.Chosen])
		if err := s.Grant(n.Chosen); err != nil {
			return err
		}
	}
	if f := j.finished.Load(); f != int64(slots) {
		return fmt.Errorf("%d slots counted finished; want %d", f, slots)
	}
	if k := j.sleepers.Load(); k != 0 {
		return fmt.Errorf("%d sleepers left after every slot finished; want 0", k)
	}
	if ran != sc.ranges {
		return fmt.Errorf("body ran %d items; want %d", ran, sc.ranges)
	}
	return nil
}

// TestSlotSleepInterleavings: in every interleaving of every scenario, a
// slot that sleeps while another holds a range is woken, every slot
// finishes, and no slot is left counted as a sleeper.
func TestSlotSleepInterleavings(t *testing.T) {
	for _, sc := range slotScenarios {
		runs, err := exploreSlots(sc)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d interleavings", sc.name, runs)
	}
}
