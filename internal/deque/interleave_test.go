package deque

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/internal/stepsched"
)

// Exhaustive interleavings of the real code.
//
// Every atomic step that other goroutines can observe calls stepHook first
// (step.go). Here the hook is a stepsched.Sched's, which parks the calling
// goroutine until the scheduler grants it its next step, so one owner and one
// or two thieves run a real Deque one atomic step at a time, in an order the
// scheduler chooses.
//
// The explorer (a stepsched.Search) re-executes the scenario from scratch
// along a recorded prefix of choices and backtracks depth first, trying every
// live thread at every step. With reduce set it adds sleep sets (Godefroid, 1996): after the
// subtree of thread q at some state has been explored, q's step is not tried
// again first in the subtrees of steps independent of it (different words, or
// both reads), as those interleavings only reorder independent steps and end
// in the same state. Every class of equivalent interleavings is still run at
// least once; TestExplorerReductionIsSound checks that on the smaller
// scenarios by comparing the outcomes with the full search.

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

// explorer searches the interleavings of one scenario.
type explorer struct {
	sc       *scenario
	reduce   bool
	search   stepsched.Search[stepKind]
	runs     int // executions that ran to the end
	outcomes map[string]bool
}

// maxDepth bounds an execution: more steps than this is a livelock.
const maxDepth = 200

// explore runs every execution of x.sc and reports the first violation.
func (x *explorer) explore() error {
	x.outcomes = map[string]bool{}
	x.search.Reduce, x.search.MaxDepth, x.search.Dependent = x.reduce, maxDepth, dependent
	return x.search.Run(x.execute)
}

// execute runs the scenario along x.search.Stack and extends the path to the end.
func (x *explorer) execute() (err error) {
	sc := x.sc
	d := NewAt[int](sc.cap, sc.start)
	vals := ints(sc.elements() + 1)[1:] // element i is *vals[i-1] == i
	for _, v := range vals[:sc.setup] {
		d.Push(v)
	}
	nthreads := 1 + len(sc.thieves)
	s := stepsched.New[stepKind](nthreads)
	stepHook = s.Hook
	taken := make([][]int, nthreads) // taken[th]: the elements thread th got, in order
	var path strings.Builder
	defer func() {
		s.Close()
		stepHook = nil
		if err != nil {
			err = fmt.Errorf("%s: %v\nschedule: %s", sc.name, err, path.String())
		}
	}()
	for th := range nthreads {
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
		if err := s.Start(th, body); err != nil {
			return err
		}
	}

	for depth := 0; s.Live() != 0; depth++ {
		n, err := x.search.Step(depth, s.Live(), s.Next())
		if n == nil {
			return err // nil if pruned
		}
		p := n.Chosen
		fmt.Fprintf(&path, "%d:%d ", p, n.Next[p])
		if err := s.Grant(p); err != nil {
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
		t.Logf("%s: %d interleavings run to the end (%d pruned by sleep sets), %d outcomes", sc.name, x.runs, x.search.Pruned, len(x.outcomes))
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
		if !maps.Equal(full.outcomes, red.outcomes) {
			t.Errorf("%s: reduced search reached %v; the full search %v", sc.name, red.outcomes, full.outcomes)
		}
		t.Logf("%s: %d interleavings in full, %d with sleep sets", sc.name, full.runs, red.runs)
	}
}
