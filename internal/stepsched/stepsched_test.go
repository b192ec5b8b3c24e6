package stepsched

import (
	"strings"
	"testing"
	"time"
)

// A toy program under test: thread t takes two steps, each a write (kind 'w')
// or a read (kind 'r') of one shared word, and hook is its step hook.
var hook func(byte)

func step(k byte) {
	if hook != nil {
		hook(k)
	}
}

// explore runs the interleavings of threads running progs and returns the
// orders in which the steps were taken, one string per execution.
func explore(t *testing.T, reduce bool, progs ...string) []string {
	t.Helper()
	x := &Search[byte]{Reduce: reduce, Dependent: func(a, b byte) bool { return a == 'w' || b == 'w' }}
	var orders []string
	err := x.Run(func() error {
		s := New[byte](len(progs))
		hook = s.Hook
		defer func() {
			s.Close()
			hook = nil
		}()
		var order strings.Builder
		for th, prog := range progs {
			if err := s.Start(th, func() {
				for i := range len(prog) {
					step(prog[i])
					order.WriteByte('0' + byte(th))
				}
			}); err != nil {
				return err
			}
		}
		for d := 0; s.Live() != 0; d++ {
			n, err := x.Step(d, s.Live(), s.Next())
			if err != nil || n == nil {
				return err
			}
			if err := s.Grant(n.Chosen); err != nil {
				return err
			}
		}
		orders = append(orders, order.String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return orders
}

// TestSearch: the full search runs every interleaving once, in depth-first
// order; sleep sets run one of each class of interleavings that differ only
// in the order of independent steps.
func TestSearch(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reduce bool
		progs  []string
		want   string
	}{
		{"full/two-writers", false, []string{"ww", "ww"}, "0011 0101 0110 1001 1010 1100"},
		{"full/readers", false, []string{"rr", "rr"}, "0011 0101 0110 1001 1010 1100"},
		{"reduced/two-writers", true, []string{"ww", "ww"}, "0011 0101 0110 1001 1010 1100"},
		{"reduced/readers", true, []string{"rr", "rr"}, "0011"},
		{"reduced/reader-and-writer", true, []string{"rr", "w"}, "001 010 100"},
		{"full/three-threads", false, []string{"w", "w", "w"}, "012 021 102 120 201 210"},
		{"reduced/three-readers", true, []string{"r", "r", "r"}, "012"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(explore(t, tc.reduce, tc.progs...), " "); got != tc.want {
				t.Errorf("executions of %q = %s; want %s", tc.progs, got, tc.want)
			}
		})
	}
}

// TestPanicEndsTheExecution: a thread's panic is returned by the Grant that
// ran it, and Close lets the other threads exit without taking their steps.
func TestPanicEndsTheExecution(t *testing.T) {
	s := New[byte](2)
	hook = s.Hook
	defer func() { hook = nil }()
	stepped := false
	if err := s.Start(0, func() { step('w'); panic("boom") }); err != nil {
		t.Fatalf("Start(0) = %v; want nil", err)
	}
	if err := s.Start(1, func() { step('w'); stepped = true }); err != nil {
		t.Fatalf("Start(1) = %v; want nil", err)
	}
	if got, want := s.Live(), uint8(0b11); got != want {
		t.Fatalf("Live() = %b; want %b", got, want)
	}
	if err := s.Grant(0); err == nil || !strings.Contains(err.Error(), "thread 0 panicked: boom") {
		t.Fatalf("Grant(0) = %v; want thread 0 panicked: boom", err)
	}
	s.Close()
	if s.Live() != 0 || stepped {
		t.Errorf("after Close: Live() = %b, thread 1 stepped %v; want 0, false", s.Live(), stepped)
	}
}

// TestReplayDiverged: a scenario that does not repeat itself is reported.
func TestReplayDiverged(t *testing.T) {
	x := &Search[byte]{}
	lives := []uint8{0b11, 0b01} // the second execution starts with thread 1 gone
	runs := 0
	err := x.Run(func() error {
		live := lives[runs]
		runs++
		_, err := x.Step(0, live, [MaxThreads]byte{})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "replay diverged at step 0") {
		t.Errorf("Run = %v after %d executions; want replay diverged at step 0", err, runs)
	}
}

// TestLivelock: an execution that reaches MaxDepth is reported.
func TestLivelock(t *testing.T) {
	x := &Search[byte]{MaxDepth: 3}
	err := x.Run(func() error {
		for d := 0; ; d++ {
			if _, err := x.Step(d, 1, [MaxThreads]byte{}); err != nil {
				return err
			}
		}
	})
	if err == nil || err.Error() != "no end after 3 steps: livelock" {
		t.Errorf("Run = %v; want no end after 3 steps: livelock", err)
	}
}

// TestCloseEndsDeferredSteps: Close ends a parked thread, and a call the
// thread deferred that steps again ends there too instead of parking for
// good: the thread's deferred calls after the step do not run, and the
// thread's goroutine exits.
func TestCloseEndsDeferredSteps(t *testing.T) {
	s := New[byte](1)
	var after bool
	exited := make(chan struct{})
	if err := s.Start(0, func() {
		defer close(exited)
		defer func() {
			s.Hook('w') // the thread's unwinding takes a step
			after = true
		}()
		s.Hook('r')
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Fatal("a thread whose deferred call steps after Close is still parked; want it ended")
	}
	if after {
		t.Error("the deferred call ran past its step after Close; want it ended at the step")
	}
	if s.Live() != 0 {
		t.Errorf("Live after Close = %08b; want none", s.Live())
	}
}
