package deque

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Exhaustive interleavings of the real code.
//
// Every atomic step that other goroutines can observe calls stepHook first
// (step.go). Here the hook parks the calling goroutine until a deterministic
// scheduler grants it its next step, so one owner and one or two thieves run
// a real Deque one atomic step at a time, in an order the scheduler chooses.
// Between two grants exactly one goroutine runs, which is how the hook knows
// who called it: the scheduler sets sched.running before each grant.
//
// The explorer re-executes the scenario from scratch along a recorded prefix
// of choices and backtracks depth first, trying every live thread at every
// step. With reduce set it adds sleep sets (Godefroid, 1996): after the
// subtree of thread q at some state has been explored, q's step is not tried
// again first in the subtrees of steps independent of it (different words, or
// both reads), as those interleavings only reorder independent steps and end
// in the same state. Every class of equivalent interleavings is still run at
// least once; TestExplorerReductionIsSound checks that on the smaller
// scenarios by comparing the outcomes with the full search.

// maxThreads bounds the owner (thread 0) and its thieves (1..).
const maxThreads = 3

// A scenario is what the threads do to one Deque.
type scenario struct {
	name    string
	cap     int    // initial capacity of the ring (a power of two)
	start   int64  // initial position of the counters
	setup   int    // elements 1..setup are pushed before the threads start
	owner   string // the owner's program: 'P' pushes the next element, 'p' pops
	thieves []int  // thread 1+i calls Steal thieves[i] times
}

func (sc *scenario) elements() int { return sc.setup + strings.Count(sc.owner, "P") }

var scenarios = []scenario{
	{name: "pop vs steal, last element", cap: 4, setup: 1, owner: "p", thieves: []int{1}},
	{name: "pop vs two steals, last element", cap: 4, setup: 1, owner: "p", thieves: []int{1, 1}},
	{name: "pop vs steal, empty", cap: 4, owner: "p", thieves: []int{1}},
	{name: "push pop vs steals", cap: 4, owner: "Pp", thieves: []int{2}},
	{name: "pops vs steals, two elements", cap: 4, setup: 2, owner: "pp", thieves: []int{2}},
	{name: "pops vs two thieves, two elements", cap: 4, setup: 2, owner: "pp", thieves: []int{1, 1}},
	{name: "push push pop pop vs steals", cap: 4, owner: "PPpp", thieves: []int{2}},
	{name: "three elements vs two thieves", cap: 4, setup: 3, owner: "ppp", thieves: []int{2, 1}},
	{name: "grow while stealing", cap: 2, setup: 2, owner: "Pp", thieves: []int{3}},
	{name: "grow at wrap-around", cap: 1, start: math.MaxInt64, setup: 1, owner: "Ppp", thieves: []int{2}},
	{name: "grow vs two thieves", cap: 2, setup: 1, owner: "PPp", thieves: []int{1, 1}},
}

// sched runs one execution: it owns the goroutines of the scenario's
// threads and lets one of them run at a time.
type sched struct {
	reports chan report
	grants  [maxThreads]chan struct{}
	running int  // the thread granted last: the only one not parked
	abort   bool // granted threads exit instead of taking their step
}

// A report says that a thread parked before a step of the given kind, or
// finished (possibly by panicking).
type report struct {
	thread int
	kind   stepKind
	done   bool
	panic  any
}

// hook is stepHook during an execution.
func (s *sched) hook(k stepKind) {
	th := s.running
	s.reports <- report{thread: th, kind: k}
	<-s.grants[th]
	if s.abort {
		runtime.Goexit()
	}
}

// start runs thread th until its first step.
func (s *sched) start(th int, body func()) report {
	s.grants[th] = make(chan struct{})
	s.running = th
	go func() {
		var rep report
		defer func() {
			rep.thread, rep.done, rep.panic = th, true, recover()
			s.reports <- rep
		}()
		body()
	}()
	return <-s.reports
}

// grant lets thread th take its next step and run to the step after it.
func (s *sched) grant(th int) report {
	s.running = th
	s.grants[th] <- struct{}{}
	return <-s.reports
}

// access names the word a step accesses (all slots count as one word) and
// whether it writes it; a CAS writes even when it fails.
func access(k stepKind) (word int, write bool) {
	switch k {
	case stepPushTop, stepPopTop, stepStealTop:
		return 0, false
	case stepPopCAS, stepStealCAS:
		return 0, true
	case stepPushBottom, stepPopBottom, stepPopRestore:
		return 1, true
	case stepStealBottom:
		return 1, false
	case stepPushGrow:
		return 2, true
	case stepStealArray:
		return 2, false
	case stepPushSlot:
		return 3, true
	default: // stepStealSlot
		return 3, false
	}
}

func dependent(a, b stepKind) bool {
	wa, xa := access(a)
	wb, xb := access(b)
	return wa == wb && (xa || xb)
}

// A dnode is the explorer's record of one state on the current path.
type dnode struct {
	live   uint8 // threads not yet finished
	next   [maxThreads]stepKind
	sleep  uint8 // threads whose next step leads only to interleavings explored already
	done   uint8 // threads run from here already
	chosen int   // the thread run from here on the current path
}

// explorer searches the interleavings of one scenario.
type explorer struct {
	sc       *scenario
	reduce   bool
	stack    []dnode
	runs     int // executions that ran to the end
	pruned   int // executions cut short because every live thread was asleep
	outcomes map[string]bool
}

// maxDepth bounds an execution: more steps than this is a livelock.
const maxDepth = 200

// explore runs every execution of x.sc and reports the first violation.
func (x *explorer) explore() error {
	x.outcomes = map[string]bool{}
	// One thread runs at a time: with one P, a grant is a direct hand-off.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for {
		if err := x.execute(); err != nil {
			return err
		}
		if !x.backtrack() {
			return nil
		}
	}
}

// backtrack moves to the next path to run and reports whether there is one.
func (x *explorer) backtrack() bool {
	for len(x.stack) > 0 {
		n := &x.stack[len(x.stack)-1]
		n.done |= 1 << n.chosen
		if c := n.live &^ n.done &^ n.sleep; c != 0 {
			n.chosen = bits.TrailingZeros8(c)
			return true
		}
		x.stack = x.stack[:len(x.stack)-1]
	}
	return false
}

// execute runs the scenario along x.stack and extends the path to the end.
func (x *explorer) execute() (err error) {
	sc := x.sc
	d := NewAt[int](sc.cap, sc.start)
	vals := ints(sc.elements() + 1)[1:] // element i is *vals[i-1] == i
	for _, v := range vals[:sc.setup] {
		d.Push(v)
	}
	s := &sched{reports: make(chan report)}
	stepHook = s.hook
	nthreads := 1 + len(sc.thieves)
	taken := make([][]int, nthreads) // taken[th]: the elements thread th got, in order
	var live uint8
	var next [maxThreads]stepKind
	var path strings.Builder
	note := func(rep report) error {
		if !rep.done {
			next[rep.thread] = rep.kind
			return nil
		}
		live &^= 1 << rep.thread
		if rep.panic != nil {
			return fmt.Errorf("thread %d panicked: %v", rep.thread, rep.panic)
		}
		return nil
	}
	defer func() {
		s.abort = true // let the threads still parked exit, one at a time
		for th := range nthreads {
			if live&(1<<th) != 0 {
				s.grant(th)
			}
		}
		stepHook = nil
		if err != nil {
			err = fmt.Errorf("%s: %v\nschedule: %s", sc.name, err, path.String())
		}
	}()
	for th := range nthreads {
		live |= 1 << th
		body := func() {
			for range sc.thieves[th-1] {
				if v := d.Steal(); v != nil {
					taken[th] = append(taken[th], *v)
				}
			}
		}
		if th == 0 {
			body = func() {
				pushed := sc.setup
				for _, op := range sc.owner {
					if op == 'P' {
						d.Push(vals[pushed])
						pushed++
					} else if v := d.Pop(); v != nil {
						taken[0] = append(taken[0], *v)
					}
				}
			}
		}
		if err := note(s.start(th, body)); err != nil {
			return err
		}
	}

	var childSleep uint8
	for depth := 0; live != 0; depth++ {
		if depth == maxDepth {
			return fmt.Errorf("no end after %d steps: livelock", maxDepth)
		}
		fresh := depth >= len(x.stack)-1 // the choice here has not been run before
		if depth < len(x.stack) {
			if n := &x.stack[depth]; n.live != live || n.next != next {
				return fmt.Errorf("replay diverged at step %d: the code under test is not deterministic", depth)
			}
		} else {
			n := dnode{live: live, next: next, sleep: childSleep}
			avail := live &^ n.sleep
			if avail == 0 {
				x.pruned++
				return nil
			}
			n.chosen = bits.TrailingZeros8(avail)
			x.stack = append(x.stack, n)
		}
		n := &x.stack[depth]
		p := n.chosen
		if x.reduce && fresh {
			childSleep = 0
			for q := range maxThreads {
				if (n.sleep|n.done)&^(1<<p)&(1<<q) != 0 && !dependent(n.next[q], n.next[p]) {
					childSleep |= 1 << q
				}
			}
		}
		fmt.Fprintf(&path, "%d:%d ", p, next[p])
		if err := note(s.grant(p)); err != nil {
			return err
		}
	}

	// The threads are done; this goroutine owns the Deque now (the reports
	// synchronize). Drain it and check that each element was taken once.
	stepHook = nil
	for v := d.Pop(); v != nil; v = d.Pop() {
		taken = append(taken, []int{*v})
	}
	if top, bottom := d.Counters(); top != bottom {
		return fmt.Errorf("drained deque has top %d, bottom %d; want equal", top, bottom)
	}
	by := make([]int, sc.elements()+1)
	var o strings.Builder
	for th, ts := range taken {
		for _, v := range ts {
			if by[v] != 0 {
				return fmt.Errorf("element %d was taken twice (threads %d and %d); want exactly once", v, by[v]-1, th)
			}
			by[v] = th + 1
		}
		fmt.Fprint(&o, ts, " ")
	}
	for v := 1; v < len(by); v++ {
		if by[v] == 0 {
			return fmt.Errorf("element %d was never taken; want exactly once", v)
		}
	}
	x.runs++
	x.outcomes[o.String()] = true
	return nil
}

// TestInterleavingsExactlyOnce: in every interleaving of every scenario's
// atomic steps, each element pushed is taken exactly once, by a Pop, a
// Steal, or the final drain, and the drained deque has top == bottom.
func TestInterleavingsExactlyOnce(t *testing.T) {
	total := 0
	for i := range scenarios {
		sc := &scenarios[i]
		x := &explorer{sc: sc, reduce: true}
		if err := x.explore(); err != nil {
			t.Fatal(err)
		}
		total += x.runs
		t.Logf("%s: %d interleavings run to the end (%d pruned by sleep sets), %d outcomes", sc.name, x.runs, x.pruned, len(x.outcomes))
	}
	t.Logf("%d interleavings in all", total)
}

// TestLastElementRace: the interleavings of the owner's Pop and a thief's
// Steal on a one-element deque include both winners, and never neither.
func TestLastElementRace(t *testing.T) {
	x := &explorer{sc: &scenarios[0]}
	if err := x.explore(); err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(func(yield func(string) bool) {
		for o := range x.outcomes {
			if !yield(o) {
				return
			}
		}
	})
	if want := []string{"[1] [] ", "[] [1] "}; !slices.Equal(got, want) {
		t.Fatalf("outcomes of Pop vs Steal on one element = %q; want %q (owner wins, thief wins)", got, want)
	}
	t.Logf("%d interleavings, every one of them run", x.runs)
}

// TestExplorerReductionIsSound: on the scenarios small enough for the full
// search, sleep sets reach the same outcomes as trying every interleaving.
// (Up to 90,000 interleavings each; under the race detector or -short only
// those whose reduced search runs at most 50, a few thousand in full.)
func TestExplorerReductionIsSound(t *testing.T) {
	for i := range scenarios {
		sc := &scenarios[i]
		if sc.elements()+2*len(sc.thieves) > 5 {
			continue
		}
		red := &explorer{sc: sc, reduce: true}
		if err := red.explore(); err != nil {
			t.Fatal(err)
		}
		if (raceEnabled || testing.Short()) && red.runs > 50 {
			continue
		}
		full := &explorer{sc: sc}
		if err := full.explore(); err != nil {
			t.Fatal(err)
		}
		if !mapsEqual(full.outcomes, red.outcomes) {
			t.Errorf("%s: reduced search reached %v; the full search %v", sc.name, red.outcomes, full.outcomes)
		}
		t.Logf("%s: %d interleavings in full, %d with sleep sets", sc.name, full.runs, red.runs)
	}
}

func mapsEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
