package stepsched

import (
	"fmt"
	"math/bits"
	"runtime"
)

// A Node is a Search's record of one state on the current path.
type Node[K comparable] struct {
	Live      uint8         // threads not yet finished
	Next      [MaxThreads]K // the step each thread is parked before
	Sleep     uint8         // threads whose next step leads only to interleavings explored already
	Backtrack uint8         // threads to run from here
	Done      uint8         // threads run from here already
	Chosen    int           // the thread run from here on the current path
}

// A Search is a depth-first search over the schedules of a deterministic
// scenario. Each execution runs the scenario from scratch and calls Step at
// every depth to learn which thread to grant; Run repeats executions until
// every path has been run.
//
// Without Reduce every live thread is tried at every node: every
// interleaving. With Reduce it adds sleep sets (Godefroid, 1996): after the
// subtree of thread q at some node has been explored, q's step is not tried
// first again in the subtrees of steps independent of it, as those
// interleavings only reorder independent steps and end in the same state.
type Search[K comparable] struct {
	// Reduce turns on sleep sets.
	Reduce bool
	// SourceSets, with Reduce, starts each new node with only its first
	// choice in Backtrack: the caller adds the threads that reverse races
	// (source-DPOR). Otherwise every live thread is in Backtrack.
	SourceSets bool
	// Dependent reports whether steps of kinds a and b, by different
	// threads, may not be swapped. Required with Reduce.
	Dependent func(a, b K) bool
	// MaxDepth bounds an execution: Step reports a livelock at depth
	// MaxDepth. Zero means no bound.
	MaxDepth int
	// Stack is the current path; Stack[d] is the node at depth d.
	Stack []Node[K]
	// Pruned counts the executions cut short because every live thread was
	// asleep.
	Pruned int

	sleep uint8 // the sleep set of the node after the fresh one
}

// Run runs execute until the search is complete, and returns the first
// error execute returns. One thread runs at a time, so Run sets GOMAXPROCS
// to 1 while it runs: a grant is then a direct hand-off.
func (x *Search[K]) Run(execute func() error) error {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for {
		if err := execute(); err != nil {
			return err
		}
		if !x.backtrack() {
			return nil
		}
	}
}

// backtrack moves to the next path to run and reports whether there is one.
func (x *Search[K]) backtrack() bool {
	for len(x.Stack) > 0 {
		n := &x.Stack[len(x.Stack)-1]
		n.Done |= 1 << n.Chosen
		if c := n.Backtrack &^ n.Done &^ n.Sleep; c != 0 {
			n.Chosen = bits.TrailingZeros8(c)
			return true
		}
		x.Stack = x.Stack[:len(x.Stack)-1]
	}
	return false
}

// Step returns the node at depth d of the current execution, in which the
// live threads are parked before the steps next; its Chosen thread is the
// one to grant. Along the recorded path it replays the recorded choice, and
// returns an error if the state differs from the recorded one. Past the
// path it records a new node, or returns nil, nil if every live thread is
// asleep there: then every continuation has been explored, and the execution
// stops. It returns an error at depth MaxDepth.
func (x *Search[K]) Step(d int, live uint8, next [MaxThreads]K) (*Node[K], error) {
	if x.MaxDepth > 0 && d == x.MaxDepth {
		return nil, fmt.Errorf("no end after %d steps: livelock", d)
	}
	if d == 0 {
		x.sleep = 0
	}
	fresh := d >= len(x.Stack)-1 // the choice at d has not been run before
	if d < len(x.Stack) {
		if n := &x.Stack[d]; n.Live != live || n.Next != next {
			return nil, fmt.Errorf("replay diverged at step %d: the code under test is not deterministic", d)
		}
	} else {
		n := Node[K]{Live: live, Next: next, Sleep: x.sleep}
		avail := live &^ n.Sleep
		if avail == 0 {
			x.Pruned++
			return nil, nil
		}
		n.Chosen = bits.TrailingZeros8(avail)
		n.Backtrack = live
		if x.Reduce && x.SourceSets {
			n.Backtrack = 1 << n.Chosen
		}
		x.Stack = append(x.Stack, n)
	}
	n := &x.Stack[d]
	if x.Reduce && fresh {
		// A thread explored from here already (or asleep here) whose step
		// is independent of p's stays asleep after p's.
		p := n.Chosen
		x.sleep = 0
		for q := range MaxThreads {
			if (n.Sleep|n.Done)&^(1<<p)&(1<<q) != 0 && !x.Dependent(n.Next[q], n.Next[p]) {
				x.sleep |= 1 << q
			}
		}
	}
	return n, nil
}
