package sched

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/internal/stepsched"
)

// Interleavings of the real sleep protocol.
//
// Idle and Parker call stepHook before every step other goroutines can
// observe (step.go); the test's own threads do too, before each access to
// the work they share. Here the hook is a stepsched.Sched's, so producers,
// workers and wakers run real Idles and Parkers one step at a time, in an
// order a stepsched.Search chooses, depth first over every interleaving
// (with sleep sets: steps on different words commute). A thread parked
// before stepWait is granted only when its Parker holds a token: otherwise
// the receive would block, and the thread is not enabled.
//
// An execution ends when no thread is enabled: every thread has finished or
// sleeps on an empty channel. The protocol's promise is then checked: no
// unit of work is left while its workers sleep (no lost wake-up), and the
// counts of searching and sleeping workers match the threads.

// Steps of the test's own threads, after the protocol's.
const (
	stepPublish  stepKind = 100 + iota // work: add a unit
	stepTake                           // work: take a unit if there is one
	stepReady                          // work: load (a sleeper's last look)
	stepCond                           // cond: store true
	stepCondLoad                       // cond: load (a waiter's look)
)

// word names the word a step accesses and whether it writes it; the
// sleepers list and state count as one word (mu), all channels as one.
func word(k stepKind) (w int, write bool) {
	switch k {
	case stepNotify:
		return 0, false
	case stepStartSearch, stepStopSearch, stepPause, stepAnnounce, stepLeave, stepWakeOne:
		return 0, true
	case stepUnpark:
		return 1, false
	case stepArm, stepDisarm:
		return 1, true
	case stepWait, stepToken:
		return 2, true
	case stepReady:
		return 3, false
	case stepPublish, stepTake:
		return 3, true
	case stepCondLoad:
		return 4, false
	default: // stepCond
		return 4, true
	}
}

func dependent(a, b stepKind) bool {
	wa, xa := word(a)
	wb, xb := word(b)
	return wa == wb && (xa || xb)
}

// An idleScenario is what the threads do. Thread 0 is the producer, which
// publishes units of work one at a time, calling Notify after each; thread
// 1+i is a worker that takes takes[i] units and then leaves, searching
// (one look) before it sleeps. With batch set, the producer publishes every
// unit at once and calls Wake for all of them, as a loop's post does for
// its slots. With waiter set, thread 1 instead waits for
// a condition that thread 0 sets and then Unparks it (the way Join waits
// for a stolen frame), and there are no units.
//
// With blind set, one more thread is a waiter that takes none of the
// units, as a waiter in HelpUntil takes no loop job posted before its wait
// began: it searches, and sleeps with floor 1 on a condition nobody sets.
// Producers may count on it as a searcher, and wakes may pick it; its last
// look before it sleeps hands the units on (WakeFor), as search does for
// an older job still open.
//
// With yields set, a worker whose look finds nothing yields (Idle.Yield)
// once per search, uncounted as a searcher meanwhile, and then looks
// again, as search does between its rounds.
type idleScenario struct {
	name   string
	units  int
	batch  bool // publish every unit at once, with one Wake(units)
	takes  []int
	waiter bool
	blind  bool
	yields bool
}

var idleScenarios = []idleScenario{
	{name: "one unit, one worker", units: 1, takes: []int{1}},
	{name: "two units, one worker", units: 2, takes: []int{2}},
	{name: "two units at once, two workers of one each", units: 2, batch: true, takes: []int{1, 1}},
	{name: "unpark a waiter", waiter: true},
	{name: "one unit, one worker, a waiter that cannot take it", units: 1, takes: []int{1}, blind: true},
	{name: "one unit, one worker that yields", units: 1, takes: []int{1}, yields: true},
	{name: "one unit, one worker that yields, a waiter that cannot take it", units: 1, takes: []int{1}, blind: true, yields: true},
}

// idleExplorer searches the interleavings of one scenario.
type idleExplorer struct {
	sc     *idleScenario
	search stepsched.Search[stepKind]
	runs   int
}

func (x *idleExplorer) explore() error {
	x.search.Reduce, x.search.MaxDepth, x.search.Dependent = true, 400, dependent
	return x.search.Run(x.execute)
}

// execute runs the scenario along x.search.Stack and extends the path to
// the end.
func (x *idleExplorer) execute() (err error) {
	sc := x.sc
	var idle Idle
	var work stepWork
	var cond atomic.Bool
	take, ready := work.take, work.ready
	nthreads := 1 + len(sc.takes)
	if sc.waiter {
		nthreads = 2
	}
	blindTh := -1
	if sc.blind {
		blindTh = nthreads
		nthreads++
	}
	parkers := make([]*Parker, nthreads)
	for th := range parkers {
		parkers[th] = NewParker()
	}
	s := stepsched.New[stepKind](nthreads)
	stepHook = s.Hook
	var path strings.Builder
	defer func() {
		s.Close()
		stepHook = nil
		if err != nil {
			err = fmt.Errorf("%s: %v\nschedule (thread:step): %s", sc.name, err, path.String())
		}
	}()
	condSet := func() bool {
		stepHook(stepCondLoad)
		return cond.Load()
	}
	for th := range nthreads {
		p := parkers[th]
		var body func()
		switch {
		case th == 0 && sc.waiter:
			body = func() {
				stepHook(stepCond)
				cond.Store(true)
				parkers[1].Unpark()
			}
		case th == 0:
			body = func() {
				if sc.batch {
					stepHook(stepPublish)
					work.Add(int64(sc.units))
					idle.Wake(sc.units)
					return
				}
				for range sc.units {
					stepHook(stepPublish)
					work.Add(1)
					idle.Notify()
				}
			}
		case th == blindTh:
			body = func() {
				idle.StartSearch()
				for !condSet() {
					p.floor = 1
					idle.Sleep(p, func() bool {
						if condSet() {
							return true
						}
						if ready() { // units it does not take: hand them on
							idle.WakeFor(1)
						}
						return false
					})
				}
				idle.StopSearch()
			}
		case sc.waiter:
			body = func() {
				idle.StartSearch()
				for !condSet() {
					idle.Sleep(p, condSet)
				}
				idle.StopSearch()
			}
		default:
			limit := sc.takes[th-1]
			body = func() {
				idle.StartSearch()
				yielded := false
				for got := 0; ; {
					if !take() {
						if sc.yields && !yielded {
							yielded = true
							idle.Yield()
							continue
						}
						idle.Sleep(p, ready)
						continue
					}
					idle.StopSearch()
					if got++; got == limit {
						return
					}
					idle.StartSearch()
					yielded = false
				}
			}
		}
		if err := s.Start(th, body); err != nil {
			return err
		}
	}

	// enabled: the live threads, less those parked before a receive from an
	// empty channel.
	enabled := func() uint8 {
		e := s.Live()
		next := s.Next()
		for th := range nthreads {
			if next[th] == stepWait && len(parkers[th].wake) == 0 {
				e &^= 1 << th
			}
		}
		return e
	}
	for depth := 0; enabled() != 0; depth++ {
		n, err := x.search.Step(depth, enabled(), s.Next())
		if n == nil {
			return err // nil if pruned
		}
		th := n.Chosen
		fmt.Fprintf(&path, "%d:%d ", th, n.Next[th])
		if err := s.Grant(th); err != nil {
			return err
		}
	}

	blocked := 0
	for th := range nthreads {
		if s.Live()&(1<<th) != 0 {
			blocked++
		}
	}
	if w := work.Load(); w != 0 && blocked > 0 {
		return fmt.Errorf("%d units of work left with %d threads asleep: lost wake-up", w, blocked)
	}
	if sc.waiter && blocked > 0 {
		return fmt.Errorf("the waiter sleeps after its condition was set and Unpark called: lost wake-up")
	}
	if searching, sleeping := idle.Counts(); searching != 0 || sleeping != blocked {
		return fmt.Errorf("at the end: %d searching, %d sleeping; want 0, %d (the threads asleep)", searching, sleeping, blocked)
	}
	x.runs++
	return nil
}

// TestInterleavingsNoLostWakeup: in every interleaving of every scenario,
// no work is left while a worker sleeps, a waiter whose condition was set
// and Unparked does not sleep on, and the counts match the sleepers.
func TestInterleavingsNoLostWakeup(t *testing.T) {
	total := 0
	for i := range idleScenarios {
		sc := &idleScenarios[i]
		t.Run(sc.name, func(t *testing.T) {
			x := &idleExplorer{sc: sc}
			if err := x.explore(); err != nil {
				t.Fatal(err)
			}
			total += x.runs
			t.Logf("%d interleavings run to the end (%d pruned by sleep sets)", x.runs, x.search.Pruned)
		})
	}
	t.Logf("%d interleavings in all", total)
}

// stepWork is a count of published units of work, for the step tests: take
// claims one and ready looks for one, each after its step.
type stepWork struct{ atomic.Int64 }

func (w *stepWork) take() bool {
	stepHook(stepTake)
	for {
		n := w.Load()
		if n == 0 {
			return false
		}
		if w.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

func (w *stepWork) ready() bool {
	stepHook(stepReady)
	return w.Load() > 0
}
