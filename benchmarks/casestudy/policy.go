package casestudy

import (
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/distrib"
)

// The policy comparison: the fork-join schemes of fib, minimax and the
// octree (the "steal" scheme, every task forked with Both) run on a
// distrib.Pool of their own under each of the three distribution policies,
// work stealing, work dealing and work balancing (see distrib.Policy),
// counting per worker the tasks that migrated, the tasks moved between
// queues and the time spent idle. The recursions below are those of the
// steal schemes (fibSteal, joinNode and joinMoves, octJoin) with
// distrib.Both in place of pfor.Both. They are copies on purpose: one
// recursion generic over the pool would call Both through a func value on
// every fork, and the fork's cost is part of what the tables compare.

// Policies lists the distribution policies in table order.
var Policies = distrib.Policies

// FibOn is Fib's steal scheme on p.
func FibOn(p *distrib.Pool, n, cutoff int) int {
	var r int
	p.Run(func(w *distrib.Worker) { r = fibOn(w, fibArg{n, cutoff}) })
	return r
}

func fibOn(w *distrib.Worker, a fibArg) int {
	if a.n < a.cutoff {
		return fibSeq(a.n)
	}
	x, y := distrib.Both(w, fibOn, fibArg{a.n - 1, a.cutoff}, fibArg{a.n - 2, a.cutoff})
	return x + y
}

// MinimaxOn is Minimax's steal scheme on p.
func MinimaxOn(p *distrib.Pool, lookahead int, tr *Tracker) int {
	var v int
	p.Run(func(w *distrib.Worker) { v = nodeOn(w, tr, position(midGame), lookahead, false) })
	return v
}

func movesOn(w *distrib.Worker, m mmMoves) int {
	if m.hi-m.lo == 1 {
		if !m.b.canPlay(m.lo) {
			return math.MinInt
		}
		next, won := m.b.play(m.lo)
		return -nodeOn(w, m.tr, next, m.depth, won)
	}
	mid := (m.lo + m.hi) / 2
	lo, hi := m, m
	lo.hi, hi.lo = mid, mid
	a, b := distrib.Both(w, movesOn, lo, hi)
	return max(a, b)
}

func nodeOn(w *distrib.Worker, tr *Tracker, b board, depth int, won bool) int {
	tr.create(1)
	defer tr.finish(1)
	switch {
	case won:
		return -winScore
	case depth == 0:
		return b.evaluate()
	}
	if v := movesOn(w, mmMoves{tr, b, depth - 1, 0, cols}); v != math.MinInt {
		return v
	}
	return 0 // a full board: a draw
}

// OctreeOn is Octree's steal scheme on p.
func OctreeOn(p *distrib.Pool, ps []Particle, tr *Tracker) OctreeResult {
	if len(ps) <= octThreshold {
		return Octree(Sequential, ps, tr)
	}
	var tot octTotals
	tr.create(1)
	p.Run(func(w *distrib.Worker) {
		octOn(w, octKids{ps: ps, tot: &tot, tr: tr, kids: [8]Octant{rootOctant(ps)}, lo: 0, hi: 1})
	})
	return tot.result()
}

func octOn(w *distrib.Worker, k octKids) struct{} {
	if k.hi-k.lo > 1 {
		mid := (k.lo + k.hi) / 2
		lo, hi := k, k
		lo.hi, hi.lo = mid, mid
		distrib.Both(w, octOn, lo, hi)
		return struct{}{}
	}
	kids, n, leaves, inLeaves := octTask(k.ps, k.kids[k.lo])
	k.tot.add(leaves, inLeaves)
	k.tr.create(int64(n))
	k.tr.finish(1) // this task is done; only its children's join remains
	if n > 0 {
		octOn(w, octKids{ps: k.ps, tot: k.tot, tr: k.tr, kids: kids, lo: 0, hi: n})
	}
	return struct{}{}
}

// A PolicyRun is what MeasurePolicy found for one workload under one
// policy.
type PolicyRun struct {
	Policy  distrib.Policy
	Time    time.Duration         // median of the timed runs
	Reps    int                   // timed runs
	Workers []distrib.WorkerStats // per worker (the pool's, then the guest), summed over the timed runs
}

// PerRun returns the workers' counts and idle times summed over them,
// divided by the number of runs.
func (r PolicyRun) PerRun() (ran, migrated, moved float64, idle time.Duration) {
	t := distrib.PoolStats{Workers: r.Workers}.Total()
	n := float64(r.Reps)
	return float64(t.Ran) / n, float64(t.Migrated) / n, float64(t.Moved) / n, t.Idle / time.Duration(r.Reps)
}

// MeasurePolicy runs a workload on a new pool of GOMAXPROCS workers under
// policy pol: one warm-up run, then reps timed runs, each after prepare
// (untimed), and closes the pool. The counts cover the timed runs only:
// each is the difference of distrib.Pool.Stats taken just before and just
// after a run, whose idle times include a period under way, so that a
// worker asleep between runs counts only the part of its sleep inside a
// run.
func MeasurePolicy(pol distrib.Policy, reps int, prepare func(), run func(p *distrib.Pool)) PolicyRun {
	p := distrib.NewPool(runtime.GOMAXPROCS(0), pol)
	defer p.Close()
	prepare()
	run(p)
	r := PolicyRun{Policy: pol, Reps: reps}
	ds := make([]time.Duration, reps)
	for i := range ds {
		prepare()
		before := p.Stats().Workers
		t0 := time.Now()
		run(p)
		ds[i] = time.Since(t0)
		after := p.Stats().Workers
		for len(r.Workers) < len(after) {
			r.Workers = append(r.Workers, distrib.WorkerStats{})
		}
		for k, a := range after {
			var b distrib.WorkerStats // zero for a guest new in this run
			if k < len(before) {
				b = before[k]
			}
			w := &r.Workers[k]
			w.Guest = a.Guest
			w.Spawned += a.Spawned - b.Spawned
			w.Ran += a.Ran - b.Ran
			w.Migrated += a.Migrated - b.Migrated
			w.Moved += a.Moved - b.Moved
			w.Idle += a.Idle - b.Idle
		}
	}
	slices.Sort(ds)
	r.Time = ds[reps/2]
	return r
}
