package sched

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/internal/stepsched"
)

// oneEach is a run that gives slot s the range [s, s+1), once.
type oneEach struct{ given [8]atomic.Bool }

func (r *oneEach) Next(s int) (lo, hi int, ok bool) {
	if r.given[s].Swap(true) {
		return 0, 0, false
	}
	return s, s + 1, true
}

// waitUntil polls cond until it reports true, and fails the test if it
// does not within 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, still not %s", what)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// TestWaiterHandsOnAnOlderJob: a loop job posted before a waiter's wait
// began still gets its helper slot run by the sleeping pool worker: the
// waiter, which does not take the job, hands it on as it goes to sleep.
// The post is split in two here, its job added, a waiter started and
// asleep, then its wake-up, as when the calling thread is off its core
// between the two. The hand-on happens at the waiter's first sleep, before
// the post's wake-up; without it, that wake-up would go to the waiter (the
// most recent sleeper) and the pool worker would sleep on.
func TestWaiterHandsOnAnOlderJob(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // one pool worker
	p := NewPool(func() *Worker { return new(Worker) }, func(_ string, r any) any { return r })
	p.Grow()
	counts := func(searching, sleeping int) func() bool {
		return func() bool {
			s, z := p.IdleCounts()
			return s == searching && z == sleeping
		}
	}
	waitUntil(t, "the pool worker asleep", counts(0, 1))

	ran := make(chan struct{})
	j := new(Job)
	j.Init(bodyFunc(func(slot, _, _ int) error {
		if slot == 1 {
			close(ran)
		}
		return nil
	}), nil)
	j.Slots = 2
	j.Start(new(oneEach))
	e := p.loops.Add(j)

	g := p.Acquire() // waits from after the post: does not take the job
	var done atomic.Bool
	left := make(chan struct{})
	go func() {
		defer close(left)
		g.HelpUntil(done.Load, nil)
	}()
	defer func() {
		done.Store(true)
		g.Park().Unpark()
		<-left
		p.Release(g)
		if _, ok := j.claim(); ok { // slot 1 never ran: no helper holds the job
			j.finish()
		}
		p.loops.Remove(e)
		runtime.GOMAXPROCS(1)
		p.Grow() // the pool worker retires
		waitUntil(t, "the pool worker retired", func() bool { return p.Live() == 0 })
	}()
	waitUntil(t, "the pool worker and the waiter asleep", counts(0, 2))
	p.idle.Wake(1) // the post's wake-up

	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		s, z := p.IdleCounts()
		t.Fatalf("after 10 s, slot 1 of a job added before the waiter's wait began not run, %d searching, %d sleeping: lost wake-up", s, z)
	}
}

// TestSearchYieldsUncounted: a searching worker that yields the processor
// (Idle.Yield) does not count as searching until it has it again, in every
// interleaving (see interleave_test.go) of thread 0, which publishes a unit
// of work and calls Notify, and thread 1, a worker that searches, yields
// once if it finds nothing, looks again, and sleeps if it still finds
// nothing. From its step stepPause until its next step, thread 1 is in
// Yield: Counts must report no searcher then, nobody else searching. A
// Yield that kept the worker counted would make producers count on a
// worker that looks at nothing, and Pool.Idle report it free, for as long
// as the goroutines ahead of it run.
func TestSearchYieldsUncounted(t *testing.T) {
	var search stepsched.Search[stepKind]
	search.Reduce, search.MaxDepth, search.Dependent = true, 100, dependent
	runs, looks := 0, 0
	err := search.Run(func() (err error) {
		var idle Idle
		var work stepWork
		take, ready := work.take, work.ready
		parker := NewParker()
		s := stepsched.New[stepKind](2)
		stepHook = s.Hook
		var path strings.Builder
		defer func() {
			s.Close()
			stepHook = nil
			if err != nil {
				err = fmt.Errorf("%v\nschedule (thread:step): %s", err, path.String())
			}
		}()
		if err := s.Start(0, func() {
			stepHook(stepPublish)
			work.Add(1)
			idle.Notify()
		}); err != nil {
			return err
		}
		if err := s.Start(1, func() {
			idle.StartSearch()
			if !take() {
				idle.Yield()
				for !take() {
					idle.Sleep(parker, ready)
				}
			}
			idle.StopSearch()
		}); err != nil {
			return err
		}
		enabled := func() uint8 {
			e := s.Live()
			if s.Next()[1] == stepWait && len(parker.wake) == 0 {
				e &^= 1 << 1
			}
			return e
		}
		for depth := 0; enabled() != 0; depth++ {
			n, err := search.Step(depth, enabled(), s.Next())
			if n == nil {
				return err // nil if pruned
			}
			th := n.Chosen
			fmt.Fprintf(&path, "%d:%d ", th, n.Next[th])
			if err := s.Grant(th); err != nil {
				return err
			}
			if th == 1 && n.Next[th] == stepPause { // thread 1 is in Yield until its next step
				looks++
				if searching, _ := idle.Counts(); searching != 0 {
					return fmt.Errorf("a worker in Yield, nobody else searching: Counts reports %d searching; want 0", searching)
				}
			}
		}
		if w := work.Load(); w != 0 {
			return fmt.Errorf("%d units of work left: lost wake-up", w)
		}
		runs++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if looks == 0 {
		t.Fatal("no interleaving had thread 1 yield")
	}
	t.Logf("%d interleavings run to the end, %d looks at the counts while thread 1 yielded", runs, looks)
}
