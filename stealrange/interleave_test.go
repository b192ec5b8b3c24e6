package stealrange

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/bits"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/internal/stepsched"
)

// Exhaustive interleavings of the real code.
//
// Every atomic step of the protocol calls stepHook first (step.go). Here the
// hook is a stepsched.Sched's, which parks the calling goroutine until the
// scheduler grants it its step, so one owner and up to three thieves run real
// Ranges one atomic step at a time, in an order the scheduler chooses. A step
// is the atomic operation and the thread-local code after it, up to the next
// step.
//
// The explorer is a stateless model checker (a stepsched.Search): it
// re-executes the scenario from scratch along a recorded prefix of choices
// and backtracks depth first. With reduce == false it tries every runnable thread at every step: every
// interleaving. With reduce == true it runs at least one interleaving of each
// class of interleavings that differ only in the order of independent steps,
// by source-DPOR with sleep sets (Abdulla, Aronis, Jonsson and Sagonas,
// "Optimal dynamic partial order reduction", POPL 2014, Algorithm 1). Two
// steps are dependent iff they access the same word (low or steal) and one
// writes it; a CAS counts as a write even when it fails. The owner's
// unstepped load of low at the start of a take reads its own store, and only
// thieves read low otherwise, so it depends on nothing. Interleavings of one
// class end in the same state, so the reduced search reaches every outcome
// the full one does. TestExplorerReductionIsSound checks that where the full
// search is affordable, and TestInterleavingsExactlyOnce checks the outcomes
// against the model in model_test.go. (Rejected: classic DPOR's rule, which
// schedules p itself at the racing step's state, combined with never running
// a thread in the sleep set. It missed outcomes, e.g. TryTake(2) over [0, 2)
// against two one-shot thieves lost "thief 1 gets 0, thief 2 gets 1", and
// TestExplorerReductionIsSound caught it.)

// maxThreads bounds the owner (thread 0) and its thieves (1..).
const maxThreads = 4

// A scenario is what the threads do to one Range.
type scenario struct {
	name     string
	lo, hi   int     // the Range is New(lo, hi)
	zero     bool    // or, if set, a zero Range (set lo = hi = MinInt: it is [MinInt, MinInt))
	ones     int     // the owner first calls TryTakeOne up to ones times, then
	batch    int     // TryTake(batch) until exhausted; batch 0: TryTakeOne throughout
	reset    bool    // then, if set, Reset(rlo, rhi) and takes until
	rlo, rhi int     // exhausted again
	thieves  []thief // thread 1+i runs thieves[i]

	gives    []giveBack // after the takes these name, the owner gives back part of the batch
	anyGives int        // model only: up to anyGives times, after any take, give back any part
}

// giveBack says that after its successful take number after (from 0, counting
// every take in every range), the owner processes the first keep indices of
// the batch [lo, hi) (the whole batch if it is shorter) and hands back the
// rest with GiveBack(lo+keep) (GiveBack(hi) hands back nothing, but runs all
// the same), then goes on taking.
//
// With late set, the owner holds the rest [lo+keep, hi) instead (if there is
// any) and takes again: if that take reports the range exhausted, it hands
// back what it holds with GiveBack(lo+keep), which range.go allows because a
// failed take leaves the last batch in place; if not, it processes what it
// holds after all.
type giveBack struct {
	after, keep int
	late        bool
}

// thief is a thief's program: up to attempts TrySteal calls, stopping after
// the first success if once is set. A thief records what it stole and does
// nothing else with it. With into set, it calls own.StealFrom instead, own
// being a Range of its own that no other thread uses: the spans it installs
// come from own's blocks, and own is Reset to each chunk it steals (which
// drops the chunk before, as recorded). Only the thief uses own, so the
// steps of its Reset are not scheduled: they run within the steal's CAS
// step.
type thief struct {
	attempts int
	once     bool
	into     bool
}

// gens returns the ranges the owner owns in turn, in position space.
func (sc *scenario) gens() [][2]uint64 {
	g := [][2]uint64{{toPos(sc.lo), toPos(sc.hi)}}
	if sc.reset {
		g = append(g, [2]uint64{toPos(sc.rlo), toPos(sc.rhi)})
	}
	return g
}

// A handout is a chunk [lo, hi) of positions some thread was handed, from
// generation gen: the owner's takes before Reset and steals that won a span
// installed before Reset's set are generation 0, the rest generation 1.
type handout struct {
	thread, gen int
	lo, hi      uint64
}

// tally checks handouts against the scenario's ranges and returns the
// outcome, which thread got each index (one byte per index, '0' + thread),
// or a description of the first violation: an empty or out-of-range chunk,
// an index handed out twice, or an index never handed out.
func tally(sc *scenario, hs []handout) (outcome string, err error) {
	gens := sc.gens()
	by := make([][]byte, len(gens))
	for g, r := range gens {
		by[g] = make([]byte, r[1]-r[0])
	}
	for _, h := range hs {
		if h.lo >= h.hi {
			return "", fmt.Errorf("thread %d was handed [%d, %d): want a non-empty chunk", h.thread, fromPos(h.lo), fromPos(h.hi))
		}
		r := gens[h.gen]
		if h.lo < r[0] || h.hi > r[1] {
			return "", fmt.Errorf("thread %d was handed [%d, %d): want a chunk of range %d, [%d, %d)",
				h.thread, fromPos(h.lo), fromPos(h.hi), h.gen, fromPos(r[0]), fromPos(r[1]))
		}
		for p := h.lo; p < h.hi; p++ {
			if got := by[h.gen][p-r[0]]; got != 0 {
				return "", fmt.Errorf("index %d of range %d was handed to thread %d and to thread %d; want exactly once",
					fromPos(p), h.gen, got-'0', h.thread)
			}
			by[h.gen][p-r[0]] = byte('0' + h.thread)
		}
	}
	for g, r := range gens {
		for i, b := range by[g] {
			if b == 0 {
				return "", fmt.Errorf("index %d of range %d was never handed out; want exactly once", fromPos(r[0]+uint64(i)), g)
			}
		}
	}
	var o strings.Builder
	for g := range by {
		o.Write(by[g])
		o.WriteByte('|')
	}
	return o.String(), nil
}

// An event is one step executed, with its vector clock: clock[t] counts the
// steps of thread t that happen before it (itself included).
type event struct {
	thread int
	kind   stepKind
	clock  [maxThreads]int32
}

// access names the shared word a step accesses and whether it writes it.
func access(k stepKind) (low, write bool) {
	switch k {
	case stepReserve, stepResetClose, stepResetOpen, stepGiveClose, stepGiveOpen:
		return true, true
	case stepStealLow:
		return true, false
	case stepTakeLoad, stepStealLoad, stepGiveLoad:
		return false, false
	case stepShrink, stepTakeCAS, stepStealCAS, stepResetSet, stepGiveCAS:
		return false, true
	}
	panic(fmt.Sprintf("access: unknown step kind %d", k))
}

func dependent(a, b stepKind) bool {
	la, wa := access(a)
	lb, wb := access(b)
	return la == lb && (wa || wb)
}

var stepNames = [...]string{
	stepReserve: "reserve", stepTakeLoad: "load", stepShrink: "shrink", stepTakeCAS: "cas",
	stepStealLoad: "load", stepStealLow: "low", stepStealCAS: "cas",
	stepResetClose: "close", stepResetSet: "set", stepResetOpen: "open",
	stepGiveClose: "gclose", stepGiveLoad: "gload", stepGiveCAS: "gcas", stepGiveOpen: "gopen",
}

// schedule formats a path: "o:reserve t1:load ...".
func schedule(evs []event) string {
	var b strings.Builder
	for i, e := range evs {
		if i > 0 {
			b.WriteByte(' ')
		}
		if e.thread == 0 {
			b.WriteString("o:")
		} else {
			fmt.Fprintf(&b, "t%d:", e.thread)
		}
		b.WriteString(stepNames[e.kind])
	}
	return b.String()
}

// explorer searches the interleavings of one scenario.
type explorer struct {
	sc       *scenario
	reduce   bool
	search   stepsched.Search[stepKind]
	events   []event
	runs     int // executions that ran to the end
	outcomes map[string]bool
}

// maxDepth bounds an execution: more steps than this is a livelock.
const maxDepth = 400

// explore runs every execution of x.sc and reports the first violation.
func (x *explorer) explore() error {
	x.outcomes = map[string]bool{}
	x.search.Reduce, x.search.MaxDepth, x.search.SourceSets, x.search.Dependent = x.reduce, maxDepth, true, dependent
	if err := x.search.Run(x.execute); err != nil {
		return fmt.Errorf("%v\nschedule: %s", err, schedule(x.events))
	}
	return nil
}

// execute runs the scenario along x.search.Stack and extends the path to the end.
func (x *explorer) execute() (err error) {
	sc := x.sc
	r := New(sc.lo, sc.hi)
	if sc.zero {
		r = new(Range)
	}
	nthreads := 1 + len(sc.thieves)
	s := stepsched.New[stepKind](nthreads)
	stepHook = func(of *Range, k stepKind) {
		if of == r { // a thief's own Range is its alone: its steps are not scheduled
			s.Hook(k)
		}
	}
	gen := 0 // Reset set steps granted so far
	logs := make([][]handout, nthreads)
	defer func() {
		s.Close()
		stepHook = nil
	}()
	for th := range logs {
		body := func() { thiefBody(&gen, r, sc.thieves[th-1], th, &logs[th]) }
		if th == 0 {
			body = func() { ownerBody(r, sc, &logs[0]) }
		}
		if err := s.Start(th, body); err != nil {
			return err
		}
	}

	x.events = x.events[:0]
	var clocks [maxThreads][maxThreads]int32 // clocks[t]: clock of t's last event
	for d := 0; s.Live() != 0; d++ {
		// Whether the choice at d has not been run before: ask before Step
		// extends the path.
		fresh := d >= len(x.search.Stack)-1
		n, err := x.search.Step(d, s.Live(), s.Next())
		if n == nil {
			return err // nil if pruned
		}
		p := n.Chosen
		if x.reduce && fresh {
			x.race(d, p, n.Next[p], &clocks)
		}
		ev := event{thread: p, kind: n.Next[p], clock: clocks[p]}
		for _, e := range x.events {
			if e.thread != p && dependent(e.kind, ev.kind) {
				for t := range maxThreads {
					ev.clock[t] = max(ev.clock[t], e.clock[t])
				}
			}
		}
		ev.clock[p]++
		clocks[p] = ev.clock
		x.events = append(x.events, ev)
		if ev.kind == stepResetSet {
			gen++
		}
		if err := s.Grant(p); err != nil {
			return err
		}
	}

	var hs []handout
	for _, l := range logs {
		hs = append(hs, l...)
	}
	outcome, err := tally(sc, hs)
	if err != nil {
		return err
	}
	x.runs++
	x.outcomes[outcome] = true
	return nil
}

// race is source-DPOR's race reversal (Abdulla et al., POPL 2014,
// Algorithm 1) for thread p about to take a step of kind k at depth d: for
// every step e of another thread in a race with it (dependent, and ordered
// before it by no other step), some thread that can start the reversed order
// (an initial of the steps after e that do not depend on e, followed by p's
// step) is scheduled to run at e's state, unless one already is.
func (x *explorer) race(d, p int, k stepKind, clocks *[maxThreads][maxThreads]int32) {
	hb := func(e *event, c *[maxThreads]int32) bool { return c[e.thread] >= e.clock[e.thread] }
	next := clocks[p] // the clock p's step will have
	for i := range d {
		if e := &x.events[i]; e.thread != p && dependent(e.kind, k) {
			for t := range maxThreads {
				next[t] = max(next[t], e.clock[t])
			}
		}
	}
	var notdep []*event
	for i := range d {
		e := &x.events[i]
		if e.thread == p || !dependent(e.kind, k) || hb(e, &clocks[p]) {
			continue
		}
		inRace := true
		for j := i + 1; j < d && inRace; j++ {
			f := &x.events[j]
			inRace = f.thread == p || !dependent(f.kind, k) || !hb(e, &f.clock)
		}
		if !inRace {
			continue
		}
		var initials uint8
		notdep = notdep[:0]
		for j := i + 1; j < d; j++ {
			f := &x.events[j]
			if hb(e, &f.clock) {
				continue
			}
			first := true
			for _, g := range notdep {
				first = first && !hb(g, &f.clock)
			}
			if first {
				initials |= 1 << f.thread
			}
			notdep = append(notdep, f)
		}
		first := true
		for _, g := range notdep {
			first = first && !hb(g, &next)
		}
		if first {
			initials |= 1 << p
		}
		if b := &x.search.Stack[i].Backtrack; *b&initials == 0 {
			if initials&(1<<p) != 0 {
				*b |= 1 << p
			} else {
				*b |= 1 << bits.TrailingZeros8(initials)
			}
		}
	}
}

// ownerBody is the owner's program.
func ownerBody(r *Range, sc *scenario, log *[]handout) {
	taken := 0
	for gen := range len(sc.gens()) {
		if gen == 1 {
			r.Reset(sc.rlo, sc.rhi)
		}
		var hold [2]uint64 // [f, hi) held for a late GiveBack
		for call := 0; ; call++ {
			var lo, hi uint64
			ok := false
			if sc.batch == 0 || call < sc.ones {
				var i int
				i, ok = r.TryTakeOne()
				lo, hi = toPos(i), toPos(i)+1
			} else {
				var a, b int
				a, b, ok = r.TryTake(sc.batch)
				lo, hi = toPos(a), toPos(b)
			}
			if hold[0] < hold[1] {
				if !ok {
					r.GiveBack(fromPos(hold[0]))
					hold = [2]uint64{}
					continue
				}
				*log = append(*log, handout{0, gen, hold[0], hold[1]}) // processed after all
				hold = [2]uint64{}
			}
			if !ok {
				break
			}
			f, giving, late := hi, false, false
			for _, g := range sc.gives {
				if g.after == taken && lo < hi {
					f, giving, late = lo+min(uint64(g.keep), hi-lo), !g.late, g.late
				}
			}
			taken++
			if f > lo || !giving && !late {
				*log = append(*log, handout{0, gen, lo, f})
			}
			if lo >= hi {
				return // tally reports it
			}
			if late {
				hold = [2]uint64{f, hi}
			}
			if giving {
				r.GiveBack(fromPos(f)) // the owner processed [lo, f)
			}
		}
	}
}

// thiefBody is thief th's program. *gen counts the Reset set steps granted
// so far.
func thiefBody(gen *int, r *Range, p thief, th int, log *[]handout) {
	own := New(0, 0)
	for range p.attempts {
		steal := r.TrySteal
		if p.into {
			steal = func() (int, int, bool) { return own.StealFrom(r) }
		}
		if lo, hi, ok := steal(); ok {
			// The CAS that committed the steal ran in this step (StealFrom's
			// Reset of own is not scheduled): *gen says whether Reset's set
			// ran before it.
			*log = append(*log, handout{th, *gen, toPos(lo), toPos(hi)})
			if p.once {
				return
			}
		}
	}
}

// sizes returns the ranges [lo, lo+n) for n in ns.
func sizes(name string, lo int, ns []int, sc scenario) []scenario {
	var out []scenario
	for _, n := range ns {
		s := sc
		s.lo, s.hi = lo, lo+n
		s.name = fmt.Sprintf("%s/[%d,%d)", name, lo, lo+n)
		out = append(out, s)
	}
	return out
}

// upto returns 0, 1, ..., n.
func upto(n int) []int {
	ns := make([]int, n+1)
	for i := range ns {
		ns[i] = i
	}
	return ns
}

var (
	twoThieves   = []thief{{attempts: 2}, {attempts: 2}}
	twoOnce      = []thief{{attempts: 2, once: true}, {attempts: 2, once: true}}
	threeThieves = []thief{{attempts: 1}, {attempts: 1}, {attempts: 1}}
)

// resets returns Reset scenarios: [lo, lo+n1) taken until exhausted, then
// Reset to [rlo, rlo+n2), for each pair of sizes.
func resets(name string, lo, rlo int, sc scenario, n1s, n2s []int) []scenario {
	var out []scenario
	for _, n1 := range n1s {
		for _, n2 := range n2s {
			s := sc
			s.lo, s.hi, s.reset, s.rlo, s.rhi = lo, lo+n1, true, rlo, rlo+n2
			s.name = fmt.Sprintf("%s/[%d,%d)-then-[%d,%d)", name, lo, lo+n1, rlo, rlo+n2)
			out = append(out, s)
		}
	}
	return out
}

// explorerScenarios are the scenarios of TestInterleavingsExactlyOnce: each
// owner program against 2 thieves with 2 TrySteal calls each (and some with
// 3 thieves, or thieves that stop after a steal), on ranges of 0 to 5
// indices, at 0, at math.MinInt and ending at math.MaxInt.
func explorerScenarios() []scenario {
	var scs []scenario
	add := func(s []scenario) { scs = append(scs, s...) }
	n1, n2, n3 := 3, 4, 5 // largest sizes, for dearer and cheaper owners
	if raceEnabled {
		// Every step is handed over by a channel, which orders all memory
		// accesses: the race detector cannot find anything here.
		n1, n2, n3 = 2, 2, 3
	}
	add(sizes("TryTakeOne-until-exhausted/2-thieves-x2", 0, upto(n1), scenario{thieves: twoThieves}))
	add(sizes("TryTakeOne-until-exhausted/2-thieves-x1", 0, []int{n3}, scenario{thieves: []thief{{attempts: 1}, {attempts: 1}}}))
	add(sizes("TryTakeOne-until-exhausted/1-thief-x3", 0, []int{n3}, scenario{thieves: []thief{{attempts: 3}}}))
	add(sizes("TryTakeOne-until-exhausted/3-thieves-x1", 0, upto(n1), scenario{thieves: threeThieves}))
	for k := 1; k <= 4; k++ {
		name := fmt.Sprintf("TryTake(%d)-until-exhausted", k)
		ns := []int{n1, n2, n3, n3}[k-1]
		add(sizes(name+"/2-thieves-x2", 0, upto(ns), scenario{batch: k, thieves: twoThieves}))
		add(sizes(name+"/thieves-stop-after-a-steal", 0, upto(ns), scenario{batch: k, thieves: twoOnce}))
	}
	add(sizes("TryTake(3)-until-exhausted/3-thieves-x1", 0, upto(n3), scenario{batch: 3, thieves: threeThieves}))
	add(sizes("at-MinInt/TryTake(2)", math.MinInt, upto(n2), scenario{batch: 2, thieves: twoThieves}))
	add(sizes("at-MinInt/TryTakeOne", math.MinInt, upto(n1), scenario{thieves: twoThieves}))
	add(sizes("ending-at-MaxInt/TryTake(2)", math.MaxInt-n2, []int{n2}, scenario{batch: 2, thieves: twoThieves}))
	add(sizes("ending-at-MaxInt/TryTakeOne", math.MaxInt-n1, []int{n1}, scenario{thieves: twoThieves}))
	// Far from the steal range TryTakeOne reserves maxAhead indices at once;
	// TryTake hands those out first.
	add(sizes("TryTakeOne-reserving-ahead-then-TryTake(big)", 0, []int{200},
		scenario{ones: 3, batch: 1 << 30, thieves: twoThieves}))
	// Reset after exhaustion (the ABA case): a thief that read the old span
	// or the old low must get nothing twice, from either range, wherever the
	// new range lies: below, on, above (with a gap) or at the end of the int
	// domain.
	mixed := []thief{{attempts: 2}, {attempts: 1}}
	rs := upto(n1 - 1)
	add(resets("Reset/below", 10, 0, scenario{batch: 2, thieves: mixed}, rs, rs))
	add(resets("Reset/same-indices", 0, 0, scenario{batch: 2, thieves: mixed}, rs, rs))
	add(resets("Reset/above-with-gap", 0, 12, scenario{batch: 2, thieves: mixed}, rs, rs))
	add(resets("Reset/TryTakeOne/above-with-gap", 0, 12, scenario{thieves: mixed}, rs, rs))
	add(resets("Reset/ending-at-MaxInt", math.MaxInt-2, math.MaxInt-20, scenario{batch: 2, thieves: mixed}, []int{2}, rs))
	// A zero Range is empty and ready for use: the owner finds it exhausted
	// and Resets it while thieves, with TrySteal and with StealFrom, try it
	// before, during and after the Reset.
	add(resets("Reset/of-a-zero-Range", math.MinInt, math.MinInt, scenario{zero: true, batch: 2, thieves: mixed}, []int{0}, rs))
	add(resets("Reset/of-a-zero-Range/StealFrom", math.MinInt, math.MinInt,
		scenario{zero: true, batch: 2, thieves: []thief{{attempts: 2, into: true}, {attempts: 1}}}, []int{0}, rs))
	add(giveBackExplorerScenarios())
	add(stealFromExplorerScenarios())
	return scs
}

// stealFromExplorerScenarios are the StealFrom scenarios of
// TestInterleavingsExactlyOnce: thieves that steal with StealFrom into
// Ranges of their own, which install spans from their own blocks and take
// the next one for their own Reset at once, and hand a span whose CAS failed
// out again: against the owner's takes, a Reset and a GiveBack.
func stealFromExplorerScenarios() []scenario {
	var scs []scenario
	add := func(s []scenario) { scs = append(scs, s...) }
	two := []thief{{attempts: 2, into: true}, {attempts: 1, into: true}}
	one := []thief{{attempts: 3, into: true}}
	n := 4
	if raceEnabled {
		n = 2
	}
	add(sizes("StealFrom/TryTake(1)/2-thieves-x2-and-x1", 0, upto(n), scenario{batch: 1, thieves: two}))
	add(sizes("StealFrom/TryTake(2)/2-thieves-x2-and-x1", 0, upto(n), scenario{batch: 2, thieves: two}))
	add(sizes("StealFrom/TryTakeOne/1-thief-x3", 0, upto(n+1), scenario{thieves: one}))
	add(sizes("StealFrom/TryTake(2)/mixed-with-TrySteal", 0, upto(n),
		scenario{batch: 2, thieves: []thief{{attempts: 2, into: true}, {attempts: 2}}}))
	add(resets("StealFrom/Reset/same-indices", 0, 0, scenario{batch: 2, thieves: []thief{{attempts: 2, into: true}, {attempts: 1, into: true}}},
		upto(n/2+1), upto(n/2+1)))
	add(sizes("StealFrom/GiveBack/TryTake(2)/keeping-0", 0, []int{2, 3}, scenario{batch: 2, thieves: []thief{{attempts: 2, into: true}}, gives: givesAt(0, 0)}))
	return scs
}

// giveBackExplorerScenarios are the GiveBack scenarios of
// TestInterleavingsExactlyOnce: the owner takes a batch, processes a prefix,
// hands back the rest (for every split of the batch: from lo, where it hands
// back all, to hi, where it hands back nothing but still runs GiveBack's
// steps) and takes on until exhausted, against 1 or 2 thieves; also giving
// back twice, after TryTakeOne, with indices TryTakeOne reserved ahead,
// across a Reset, at the ends of the int domain, and after the next take
// reports exhaustion (late). GiveBack's four steps race with every thief
// step, so the thieves here make fewer attempts than elsewhere: with two
// thieves of two attempts each, TryTake(2) over [0, 3) giving back twice
// takes 900,000 executions.
func giveBackExplorerScenarios() []scenario {
	var scs []scenario
	add := func(s []scenario) { scs = append(scs, s...) }
	at := givesAt
	late := func(keep int) []giveBack { return []giveBack{{after: 0, keep: keep, late: true}} }
	two := []thief{{attempts: 1}, {attempts: 1}}
	one := []thief{{attempts: 3}}
	if raceEnabled {
		// As in explorerScenarios: a few small ones.
		for keep := range 3 {
			add(sizes(fmt.Sprintf("GiveBack/TryTake(2)/first-batch-keeping-%d/2-thieves-x1", keep), 0, []int{2}, scenario{batch: 2, thieves: two, gives: at(0, keep)}))
		}
		add(sizes("GiveBack/TryTake(2)/late-keeping-0/2-thieves-x1", 0, []int{2}, scenario{batch: 2, thieves: two, gives: late(0)}))
		add(sizes("GiveBack/ending-at-MaxInt/TryTake(2)", math.MaxInt-3, []int{3}, scenario{batch: 2, thieves: two, gives: at(0, 1)}))
		return scs
	}
	for keep := range 3 {
		add(sizes(fmt.Sprintf("GiveBack/TryTake(2)/first-batch-keeping-%d/2-thieves-x1", keep), 0, []int{2, 3, 4}, scenario{batch: 2, thieves: two, gives: at(0, keep)}))
		add(sizes(fmt.Sprintf("GiveBack/TryTake(2)/second-batch-keeping-%d/1-thief-x3", keep), 0, []int{4}, scenario{batch: 2, thieves: one, gives: at(1, keep)}))
		add(sizes(fmt.Sprintf("GiveBack/TryTake(2)/late-keeping-%d/2-thieves-x1", keep), 0, []int{2, 3}, scenario{batch: 2, thieves: two, gives: late(keep)}))
	}
	for keep := range 4 {
		add(sizes(fmt.Sprintf("GiveBack/TryTake(3)/first-batch-keeping-%d/2-thieves-x1", keep), 0, []int{4}, scenario{batch: 3, thieves: two, gives: at(0, keep)}))
	}
	add(sizes("GiveBack/TryTake(2)/first-batch-keeping-0/2-thieves-x2-and-x1", 0, []int{2},
		scenario{batch: 2, thieves: []thief{{attempts: 2}, {attempts: 1}}, gives: at(0, 0)}))
	twice := []giveBack{{after: 0, keep: 1}, {after: 1, keep: 0}}
	add(sizes("GiveBack/TryTake(2)/twice/1-thief-x2", 0, []int{4}, scenario{batch: 2, thieves: []thief{{attempts: 2}}, gives: twice}))
	add(sizes("GiveBack/TryTake(2)/twice/2-thieves-x1", 0, []int{3}, scenario{batch: 2, thieves: two, gives: twice}))
	add(sizes("GiveBack/TryTakeOne/keeping-0/1-thief-x3", 0, []int{2, 3}, scenario{thieves: one, gives: at(0, 0)}))
	add(sizes("GiveBack/TryTakeOne/keeping-0/2-thieves-x1", 0, []int{2}, scenario{thieves: two, gives: at(0, 0)}))
	add(sizes("GiveBack/TryTakeOne/keeping-1/2-thieves-x1", 0, []int{2}, scenario{thieves: two, gives: at(0, 1)}))
	add(sizes("GiveBack/at-MinInt/TryTake(2)", math.MinInt, []int{3}, scenario{batch: 2, thieves: two, gives: at(0, 1)}))
	add(sizes("GiveBack/ending-at-MaxInt/TryTake(2)", math.MaxInt-3, []int{3}, scenario{batch: 2, thieves: two, gives: at(0, 1)}))
	add(sizes("GiveBack/ending-at-MaxInt/TryTake(2)/keeping-all", math.MaxInt-2, []int{2}, scenario{batch: 2, thieves: two, gives: at(0, 2)}))
	both := []giveBack{{after: 0, keep: 1}, {after: 2, keep: 0}} // in the first range, and (mostly) in the second
	add(resets("GiveBack/Reset/same-indices", 0, 0, scenario{batch: 2, thieves: []thief{{attempts: 2}}, gives: both}, []int{2}, []int{1, 2}))
	add(resets("GiveBack/Reset/below", 10, 0, scenario{batch: 2, thieves: []thief{{attempts: 2}}, gives: both}, []int{2}, []int{2}))
	// Far from the steal range TryTakeOne reserves maxAhead indices: a
	// GiveBack after it hands those back too, and one after a TryTake that
	// handed out the rest of them hands back their suffix.
	big := func(g []giveBack) scenario { return scenario{ones: 3, batch: 1 << 30, thieves: two, gives: g} }
	add(sizes("GiveBack/TryTakeOne-reserving-ahead/keeping-0", 0, []int{200}, big(at(0, 0))))
	add(sizes("GiveBack/TryTakeOne-reserving-ahead/keeping-1", 0, []int{200}, big(at(1, 1))))
	add(sizes("GiveBack/TryTakeOne-reserving-ahead/then-TryTake(big)-keeping-2", 0, []int{200}, big(at(3, 2))))
	return scs
}

// givesAt returns the owner program that gives back all but keep indices of
// its take number after.
func givesAt(after, keep int) []giveBack { return []giveBack{{after: after, keep: keep}} }

// TestInterleavingsExactlyOnce runs every interleaving (up to reordering of
// independent steps) of one owner and its thieves on real Ranges: every
// index of every range the owner owns is handed out exactly once, and every
// thread finishes. Where the model applies, the outcomes (who got which
// index) are exactly the model's.
func TestInterleavingsExactlyOnce(t *testing.T) {
	total := 0
	for _, sc := range explorerScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			x := &explorer{sc: &sc, reduce: true}
			if err := x.explore(); err != nil {
				t.Fatal(err)
			}
			total += x.runs
			msg := fmt.Sprintf("%d executions (%d more cut short by sleep sets), %d outcomes", x.runs, x.search.Pruned, len(x.outcomes))
			if modelled(&sc) {
				r := newModel(&sc, asWritten).explore()
				if !maps.Equal(x.outcomes, r.outcomes) {
					t.Errorf("outcomes: got %d from the code, %d from the model; want the same", len(x.outcomes), len(r.outcomes))
				}
				msg += fmt.Sprintf(", standing for %v interleavings", r.paths)
			}
			t.Log(msg)
		})
	}
	t.Logf("%d executions in all", total)
}

// TestExplorerReductionIsSound runs the scenarios small enough for it twice,
// through every interleaving and through the reduced search: both reach the
// same outcomes, and the number of interleavings is the model's.
func TestExplorerReductionIsSound(t *testing.T) {
	scs := sizes("TryTake(2)/2-thieves-x1", 0, upto(4), scenario{batch: 2, thieves: []thief{{attempts: 1}, {attempts: 1}}})
	scs = append(scs, sizes("TryTakeOne/2-thieves-x2", 0, upto(1), scenario{thieves: twoThieves})...)
	scs = append(scs, sizes("TryTake(1)/3-thieves-x1", 0, upto(1), scenario{batch: 1, thieves: threeThieves})...)
	scs = append(scs, resets("Reset/TryTake(1)/1-thief-x2", 0, 0, scenario{batch: 1, thieves: []thief{{attempts: 2}}}, []int{1, 2}, []int{1, 2})...)
	// GiveBack: every split of the first batch, against one thief that may
	// win during the give-back and try again, or two that may both win.
	x2, x1 := []thief{{attempts: 2}}, []thief{{attempts: 1}, {attempts: 1}}
	gbs := resets("GiveBack/Reset/TryTake(1)/1-thief-x1", 0, 0,
		scenario{batch: 1, thieves: []thief{{attempts: 1}}, gives: []giveBack{{after: 0}, {after: 2}}}, []int{1}, []int{1})
	gbs = append(gbs, sizes("GiveBack/TryTake(2)/keeping-1/1-thief-x2", 0, []int{2}, scenario{batch: 2, thieves: x2, gives: givesAt(0, 1)})...)
	gbs = append(gbs, sizes("GiveBack/TryTake(2)/keeping-2/1-thief-x2", 0, []int{2}, scenario{batch: 2, thieves: x2, gives: givesAt(0, 2)})...)
	gbs = append(gbs, sizes("GiveBack/TryTake(2)/keeping-0/1-thief-x2", 0, []int{2, 3}, scenario{batch: 2, thieves: x2, gives: givesAt(0, 0)})...)
	gbs = append(gbs, sizes("GiveBack/TryTake(2)/late-keeping-0/1-thief-x2", 0, []int{2, 3},
		scenario{batch: 2, thieves: x2, gives: []giveBack{{after: 0, keep: 0, late: true}}})...)
	gbs = append(gbs, sizes("GiveBack/TryTake(2)/keeping-0/2-thieves-x1", 0, []int{1}, scenario{batch: 2, thieves: x1, gives: givesAt(0, 0)})...)
	gbs = append(gbs, sizes("GiveBack/TryTake(2)/keeping-all/2-thieves-x1", 0, []int{1, 2}, scenario{batch: 2, thieves: x1, gives: givesAt(0, 2)})...)
	if raceEnabled {
		scs, gbs = scs[:4], gbs[:3]
	}
	scs = append(scs, gbs...)
	for _, sc := range scs {
		t.Run(sc.name, func(t *testing.T) {
			full := &explorer{sc: &sc}
			if err := full.explore(); err != nil {
				t.Fatal(err)
			}
			red := &explorer{sc: &sc, reduce: true}
			if err := red.explore(); err != nil {
				t.Fatal(err)
			}
			r := newModel(&sc, asWritten).explore()
			if !maps.Equal(full.outcomes, red.outcomes) || !maps.Equal(full.outcomes, r.outcomes) {
				t.Errorf("outcomes: got %d from every interleaving, %d from the reduced search, %d from the model; want the same",
					len(full.outcomes), len(red.outcomes), len(r.outcomes))
			}
			if r.paths.Cmp(big.NewInt(int64(full.runs))) != 0 {
				t.Errorf("interleavings: got %d from the code, %v from the model; want the same", full.runs, r.paths)
			}
			t.Logf("%d interleavings, %d executions reduced, %d outcomes", full.runs, red.runs, len(full.outcomes))
		})
	}
}
