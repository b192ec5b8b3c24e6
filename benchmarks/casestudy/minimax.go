package casestudy

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/stealkit/stealkit/pfor"
)

// Minimax searches the case study's mid-game position to the given
// lookahead (plies) with the named scheme and returns the negamax value of
// the position for the player to move. Every position of the tree is a task:
// the root, each position after a move, leaves (evaluated) and won
// positions (worth -winScore to the player to move) alike. Minimax panics on
// an unknown scheme.
//
// With a non-nil tracker it also counts the tasks and the peak number
// stored; that costs two atomic operations per task on shared counters, so
// timed runs pass nil.
func Minimax(scheme string, lookahead int, tr *Tracker) int {
	root := position(midGame)
	switch scheme {
	case Sequential:
		return negamax(root, lookahead, tr)
	case Static:
		return minimaxStatic(root, lookahead, tr)
	case Steal:
		var v int
		pfor.Run(func(w *pfor.Worker) { v = joinNode(w, tr, root, lookahead, false) })
		return v
	case Group:
		return minimaxGroup(root, lookahead, tr)
	case Goroutine:
		return minimaxGoroutine(root, lookahead, tr)
	}
	panic("casestudy: Minimax: unknown scheme " + scheme)
}

// negamax is the sequential reference.
func negamax(b board, depth int, tr *Tracker) int {
	tr.create(1)
	defer tr.finish(1)
	if depth == 0 {
		return b.evaluate()
	}
	best, moves := math.MinInt, 0
	for c := range cols {
		if !b.canPlay(c) {
			continue
		}
		moves++
		next, won := b.play(c)
		if won {
			tr.create(1) // the won position is a task too, with nothing to do
			tr.finish(1)
			best = winScore
			continue
		}
		best = max(best, -negamax(next, depth-1, tr))
	}
	if moves == 0 {
		return 0 // a full board: a draw
	}
	return best
}

// The steal scheme is negamax with the loop over moves split in halves with
// pfor.Both, down to single moves: each position is a task that an idle
// worker may steal, or its parent runs inline. A position's value is
// returned, as in the sequential recursion.

// mmMoves is a Both argument: the moves to columns [lo, hi) from b, whose
// positions have depth plies left to search.
type mmMoves struct {
	tr     *Tracker
	b      board
	depth  int
	lo, hi int
}

// joinMoves returns the best value for b's player to move over the moves
// of m, or math.MinInt if none is playable.
func joinMoves(w *pfor.Worker, m mmMoves) int {
	if m.hi-m.lo == 1 {
		if !m.b.canPlay(m.lo) {
			return math.MinInt
		}
		next, won := m.b.play(m.lo)
		return -joinNode(w, m.tr, next, m.depth, won)
	}
	mid := (m.lo + m.hi) / 2
	lo, hi := m, m
	lo.hi, hi.lo = mid, mid
	a, b := pfor.Both(w, joinMoves, lo, hi)
	return max(a, b)
}

// joinNode returns the value of position b for its player to move.
func joinNode(w *pfor.Worker, tr *Tracker, b board, depth int, won bool) int {
	tr.create(1)
	defer tr.finish(1)
	switch {
	case won:
		return -winScore
	case depth == 0:
		return b.evaluate()
	}
	if v := joinMoves(w, mmMoves{tr, b, depth - 1, 0, cols}); v != math.MinInt {
		return v
	}
	return 0 // a full board: a draw
}

// The group and goroutine schemes share one node procedure: a task is a position with its
// remaining depth, its parent's record, and whether the move to it won. A
// leaf reports its value to its parent; an inner position creates a record
// and spawns a task per child; the last child to report completes the
// record and reports to the grandparent, and so on up (continuation
// passing: no task waits).

// An mmNode is an inner position waiting for its children.
type mmNode struct {
	parent  *mmNode
	pending atomic.Int32 // children yet to report
	best    atomic.Int64 // max over reported children of -value
}

// mmTask is one position to visit.
type mmTask struct {
	b      board
	depth  int
	parent *mmNode
	won    bool
}

// mmSearch is the state of one parallel search.
type mmSearch struct {
	tr  *Tracker
	top mmNode // the root's parent: its best is minus the root's value
}

func newSearch(tr *Tracker) *mmSearch {
	s := &mmSearch{tr: tr}
	s.top.pending.Store(1)
	s.top.best.Store(math.MinInt64)
	return s
}

func (s *mmSearch) value() int { return int(-s.top.best.Load()) }

// visit runs task t, spawning its children with spawn.
func (s *mmSearch) visit(t mmTask, spawn func(mmTask)) {
	switch {
	case t.won:
		s.report(t.parent, -winScore)
	case t.depth == 0:
		s.report(t.parent, t.b.evaluate())
	default:
		var kids [cols]mmTask
		k := 0
		for c := range cols {
			if t.b.canPlay(c) {
				next, won := t.b.play(c)
				kids[k] = mmTask{next, t.depth - 1, nil, won}
				k++
			}
		}
		if k == 0 {
			s.report(t.parent, 0)
			break
		}
		n := &mmNode{parent: t.parent}
		n.best.Store(math.MinInt64)
		n.pending.Store(int32(k))
		s.tr.create(int64(k))
		for _, kid := range kids[:k] {
			kid.parent = n
			spawn(kid)
		}
		return // n finishes when its last child reports
	}
	s.tr.finish(1)
}

// report delivers v, the value of a child of n for the child's player to
// move, and completes n and its ancestors whose last child this was.
func (s *mmSearch) report(n *mmNode, v int) {
	for {
		neg := int64(-v)
		for cur := n.best.Load(); neg > cur && !n.best.CompareAndSwap(cur, neg); cur = n.best.Load() {
		}
		if n.pending.Add(-1) != 0 || n == &s.top {
			return
		}
		s.tr.finish(1)
		v, n = int(n.best.Load()), n.parent
	}
}

// minimaxGroup runs every position as a task of one pfor.Group, spawned
// onto the spawning worker's deque.
func minimaxGroup(root board, depth int, tr *Tracker) int {
	s := newSearch(tr)
	g := new(pfor.Group)
	var run func(w *pfor.Worker, t mmTask)
	run = func(w *pfor.Worker, t mmTask) {
		s.visit(t, func(kid mmTask) {
			w.Go(g, func(w *pfor.Worker) error { run(w, kid); return nil })
		})
	}
	tr.create(1)
	g.Go(func(w *pfor.Worker) error { run(w, mmTask{root, depth, &s.top, false}); return nil })
	g.Wait()
	return s.value()
}

// minimaxGoroutine starts a goroutine per position and waits for all with
// one WaitGroup.
func minimaxGoroutine(root board, depth int, tr *Tracker) int {
	s := newSearch(tr)
	var wg sync.WaitGroup
	var run func(t mmTask)
	run = func(t mmTask) {
		defer wg.Done()
		s.visit(t, func(kid mmTask) {
			wg.Add(1)
			go run(kid)
		})
	}
	tr.create(1)
	wg.Add(1)
	go run(mmTask{root, depth, &s.top, false})
	wg.Wait()
	return s.value()
}
