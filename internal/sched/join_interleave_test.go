package sched

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stealkit/stealkit/internal/stepsched"
)

// Exhaustive interleavings of the caller's join against the slots'
// finishes (see finish and join), run as slot_interleave_test.go runs the
// slots' sleep and wake: thread 0 joins a job of some slots, threads 1.. each
// finish one slot. join polls once and then blocks; a caller about to take
// stepJoinBlock runs only when the token is on wake. Every interleaving must
// end with the caller returned, every slot counted, and no token left on
// wake for the job's next call.

// exploreJoin runs every interleaving of a join against slots finishes and
// returns the first violation, and the number of interleavings run.
func exploreJoin(slots int) (runs int, err error) {
	defer func(polls int, spin time.Duration) { joinPolls, joinSpin = polls, spin }(joinPolls, joinSpin)
	joinPolls, joinSpin = 1, 0
	x := stepsched.Search[stepKind]{MaxDepth: 100, Reduce: true, Dependent: dependentSteps}
	err = x.Run(func() error {
		if err := joinOnce(slots, &x); err != nil {
			return fmt.Errorf("%d slots: %w", slots, err)
		}
		runs++
		return nil
	})
	return runs, err
}

// joinOnce runs one execution along x's recorded path and extends it to the end.
func joinOnce(slots int, x *stepsched.Search[stepKind]) (err error) {
	j := &Job{wake: make(chan struct{}, 1), Slots: int32(slots)}
	s := stepsched.New[stepKind](1 + slots)
	stepHook = s.Hook
	var path strings.Builder
	defer func() {
		s.Close()
		stepHook = nil
		if err != nil {
			err = fmt.Errorf("%v\nschedule (thread:step): %s", err, path.String())
		}
	}()
	joined := false
	if err := s.Start(0, func() { j.join(); joined = true }); err != nil {
		return err
	}
	for th := 1; th <= slots; th++ {
		if err := s.Start(th, func() { step(stepFinish); j.finish() }); err != nil {
			return err
		}
	}
	for depth := 0; s.Live() != 0; depth++ {
		live, next := s.Live(), s.Next()
		runnable := live
		if next[0] == stepJoinBlock && len(j.wake) == 0 { // it would block: not runnable now
			runnable &^= 1
		}
		if runnable == 0 {
			return fmt.Errorf("the caller blocks in join with no token coming: a lost wake-up")
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
	if !joined {
		return fmt.Errorf("join did not return")
	}
	if f := j.finished.Load() % joinParked; f != int64(slots) {
		return fmt.Errorf("%d slots counted finished; want %d", f, slots)
	}
	if len(j.wake) != 0 {
		return fmt.Errorf("a token is left on wake after join returned: the job's next join would return at once")
	}
	return nil
}

// TestJoinInterleavings: in every interleaving of a join with the finishes
// of 1 to 3 slots, join returns once every slot has finished, blocking only
// when the last finish will wake it, and leaves wake empty.
func TestJoinInterleavings(t *testing.T) {
	for slots := 1; slots <= 3; slots++ {
		runs, err := exploreJoin(slots)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d slots: %d interleavings", slots, runs)
	}
}
