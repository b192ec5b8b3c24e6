package sched

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
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

// TestSearchYieldsUncounted: a searching pool worker that yields the
// processor does not count as searching while it waits for it again. At
// GOMAXPROCS 1 the worker and the test take turns on one processor, so
// the test runs only while the worker yields (or sleeps, or has retired):
// it must see no searcher then. Each round wakes the worker, which
// searches for spinFor and then retires; rounds repeat until the test has
// looked often enough, as a loaded machine may take spinFor from the
// worker in one go.
func TestSearchYieldsUncounted(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	p := NewPool(func() *Worker { return new(Worker) }, func(_ string, r any) any { return r })
	samples, counted := 0, 0
	for round := 0; samples < 20; round++ {
		if round == 100 {
			t.Fatalf("%d rounds: only %d looks at the counts while the woken worker searched; want 20", round, samples)
		}
		runtime.GOMAXPROCS(2) // one pool worker
		p.Grow()
		waitUntil(t, "the pool worker asleep", func() bool { s, z := p.IdleCounts(); return s == 0 && z == 1 })
		runtime.GOMAXPROCS(1) // the worker retires when it next gives up its search
		p.idle.Wake(1)
		for p.Live() > 0 {
			runtime.Gosched() // the worker runs until it yields
			if searching, sleeping := p.IdleCounts(); sleeping == 0 && p.Live() > 0 {
				samples++
				if searching != 0 {
					counted++
				}
			}
		}
	}
	if counted > samples/2 {
		t.Errorf("a searching worker that yields at GOMAXPROCS 1: counted as searching in %d of %d looks from the other goroutine; want at most half", counted, samples)
	}
}
