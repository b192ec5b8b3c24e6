// Package stepsched runs the goroutines of a test one atomic step at a time,
// in an order the test chooses, so that it can explore the interleavings of
// real concurrent code deterministically. It is for tests only.
//
// The code under test calls a hook before every step other goroutines can
// observe (stealrange/step.go, internal/deque/step.go); a test installs
// [Sched.Hook] there. Hook parks the calling goroutine until the scheduler
// grants it its step, and the goroutine then runs until its next step or its
// end. Between two grants exactly one goroutine runs, which is how Hook knows
// who called it: the scheduler records the thread it granted last. A
// [Search] chooses the grants: it re-executes a scenario from scratch along a
// recorded prefix of choices and backtracks depth first.
//
// Threads are numbered from 0 and sets of threads are uint8 bit sets, so an
// execution has at most [MaxThreads] threads.
package stepsched

import (
	"fmt"
	"runtime"
)

// MaxThreads bounds the threads of one execution.
const MaxThreads = 8

// A Sched runs one execution: it owns the goroutines of the threads and lets
// one of them run at a time. K names the kinds of step. Its methods other
// than Hook are called by the one goroutine that drives the execution; Hook
// is called by the thread that is running.
type Sched[K any] struct {
	reports chan report[K]
	grants  []chan struct{}
	running int  // the thread granted last: the only one not parked
	abort   bool // granted threads exit instead of taking their step
	live    uint8
	next    [MaxThreads]K
}

// A report says that a thread parked before a step of the given kind, or
// finished (possibly by panicking).
type report[K any] struct {
	thread int
	kind   K
	done   bool
	panic  any
}

// New returns a scheduler for threads 0 to threads-1, none started yet. It
// panics if threads is more than MaxThreads.
func New[K any](threads int) *Sched[K] {
	if threads < 0 || threads > MaxThreads {
		panic(fmt.Sprintf("stepsched: New(%d): want 0 to %d threads", threads, MaxThreads))
	}
	return &Sched[K]{reports: make(chan report[K]), grants: make([]chan struct{}, threads)}
}

// Hook is the step hook during an execution: it reports that the running
// thread is about to take a step of kind k and parks it until it is granted
// that step. It runs on the thread that called it, which is the one granted
// last: every other thread is parked. After Close it ends the thread with
// runtime.Goexit instead, also when a call deferred by the thread steps.
func (s *Sched[K]) Hook(k K) {
	if s.abort {
		// A deferred call of a thread that Close is ending steps again:
		// end it there too, or it would park with no one left to grant it.
		runtime.Goexit()
	}
	th := s.running
	s.reports <- report[K]{thread: th, kind: k}
	<-s.grants[th]
	if s.abort {
		runtime.Goexit()
	}
}

// Start starts thread th running body, and returns when the thread has
// parked before its first step or finished. It returns an error if body
// panicked.
func (s *Sched[K]) Start(th int, body func()) error {
	s.grants[th] = make(chan struct{})
	s.running = th
	s.live |= 1 << th
	go func() {
		var rep report[K]
		defer func() {
			rep.thread, rep.done, rep.panic = th, true, recover()
			s.reports <- rep
		}()
		body()
	}()
	return s.note(<-s.reports)
}

// Grant lets thread th take its next step and run to the step after it, or
// to its end. It returns an error if the thread panicked.
func (s *Sched[K]) Grant(th int) error {
	s.running = th
	s.grants[th] <- struct{}{}
	return s.note(<-s.reports)
}

func (s *Sched[K]) note(rep report[K]) error {
	if !rep.done {
		s.next[rep.thread] = rep.kind
		return nil
	}
	s.live &^= 1 << rep.thread
	if rep.panic != nil {
		return fmt.Errorf("thread %d panicked: %v", rep.thread, rep.panic)
	}
	return nil
}

// Live returns the set of threads started and not yet finished.
func (s *Sched[K]) Live() uint8 { return s.live }

// Next returns the kind of step each live thread is parked before. A
// finished thread's entry is the last step it took; a thread not started,
// the zero K.
func (s *Sched[K]) Next() [MaxThreads]K { return s.next }

// Close ends the execution: it lets the threads still parked exit, one at a
// time, without taking their steps. Clear the step hook after Close.
func (s *Sched[K]) Close() {
	s.abort = true
	for th := range s.grants {
		if s.live&(1<<th) != 0 {
			s.Grant(th)
		}
	}
}
