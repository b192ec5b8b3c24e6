package pfor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/internal/stepsched"
)

// Exhaustive interleavings of a helper's park against posts, on a pool of
// the test's own (its hook steps it; the process's pool is untouched), run
// as slot_interleave_test.go runs the slots' sleep and wake: thread 0 is a
// helper that saw generation 0 and parks; threads 1.. each post a job of two
// slots, which wakes one parked helper. The helper about to block runs only
// when a token is on its channel. Every interleaving must end with the
// helper back from park (a post came after the generation it saw), none of
// it left in idle or sleeping, and no token left on its channel.

func explorePark(posters int) (runs int, err error) {
	x := stepsched.Search[stepKind]{MaxDepth: 100, Reduce: true, Dependent: dependentSteps}
	err = x.Run(func() error {
		if err := parkOnce(posters, &x); err != nil {
			return fmt.Errorf("%d posters: %w", posters, err)
		}
		runs++
		return nil
	})
	return runs, err
}

func parkOnce(posters int, x *stepsched.Search[stepKind]) (err error) {
	p := &pool{}
	s := stepsched.New[stepKind](1 + posters)
	p.hook = s.Hook
	var path strings.Builder
	defer func() {
		s.Close()
		if err != nil {
			err = fmt.Errorf("%v\nschedule (thread:step): %s", err, path.String())
		}
	}()
	wake := make(chan struct{}, 1)
	back := false
	if err := s.Start(0, func() { back = p.park(0, wake) }); err != nil {
		return err
	}
	for th := 1; th <= posters; th++ {
		j := &job{slots: 2}
		if err := s.Start(th, func() { p.post(j, 0) }); err != nil {
			return err
		}
	}
	for depth := 0; s.Live() != 0; depth++ {
		live, next := s.Live(), s.Next()
		runnable := live
		if next[0] == stepParkBlock && len(wake) == 0 { // it would block: not runnable now
			runnable &^= 1
		}
		if runnable == 0 {
			return fmt.Errorf("the helper blocks with no token coming although a post came after the generation it saw: a lost wake-up")
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
	switch {
	case !back:
		return fmt.Errorf("park reported that the helper exits; want it back at work")
	case len(p.idle) != 0 || p.sleeping.Load() != 0:
		return fmt.Errorf("%d helpers in idle, sleeping %d after the helper came back; want none", len(p.idle), p.sleeping.Load())
	case len(wake) != 0:
		return fmt.Errorf("a token is left on the helper's channel: its next park would return at once")
	}
	return nil
}

// TestParkInterleavings: in every interleaving of a helper's park with one
// or two posts after the generation it saw, the helper comes back, and
// leaves neither an entry in idle nor a token behind.
func TestParkInterleavings(t *testing.T) {
	for posters := 1; posters <= 2; posters++ {
		runs, err := explorePark(posters)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d posters: %d interleavings", posters, runs)
	}
}
