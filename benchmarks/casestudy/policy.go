package casestudy

import (
	"slices"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// The policy comparison: the fork-join schemes of fib, minimax and the
// octree (the "steal" scheme, every task forked with pfor.Both) run on a
// pfor.Pool of their own under each of the task pool's distribution
// policies, work stealing, work dealing and work balancing (see
// pfor.Policy), counting per worker the tasks that migrated, the tasks
// moved between queues and the time spent idle.

// Policies lists the distribution policies in table order.
var Policies = []pfor.Policy{pfor.Stealing, pfor.Dealing, pfor.Balancing}

// FibOn is Fib's steal scheme on p.
func FibOn(p *pfor.Pool, n, cutoff int) int {
	var r int
	p.Run(func(w *pfor.Worker) { r = fibSteal(w, fibArg{n, cutoff}) })
	return r
}

// MinimaxOn is Minimax's steal scheme on p.
func MinimaxOn(p *pfor.Pool, lookahead int, tr *Tracker) int {
	var v int
	p.Run(func(w *pfor.Worker) { v = joinNode(w, tr, position(midGame), lookahead, false) })
	return v
}

// OctreeOn is Octree's steal scheme on p.
func OctreeOn(p *pfor.Pool, ps []Particle, tr *Tracker) OctreeResult {
	if len(ps) <= octThreshold {
		return Octree(Sequential, ps, tr)
	}
	return octreeSteal(p.Run, ps, rootOctant(ps), tr)
}

// A PolicyRun is what MeasurePolicy found for one workload under one
// policy.
type PolicyRun struct {
	Policy  pfor.Policy
	Time    time.Duration          // median of the timed runs
	Reps    int                    // timed runs
	Workers []pfor.PoolWorkerStats // per worker (the pool's, then the guest), summed over the timed runs
}

// PerRun returns the workers' counts and idle times summed over them,
// divided by the number of runs.
func (r PolicyRun) PerRun() (ran, migrated, moved float64, idle time.Duration) {
	t := pfor.PoolStats{Workers: r.Workers}.Total()
	n := float64(r.Reps)
	return float64(t.Ran) / n, float64(t.Migrated) / n, float64(t.Moved) / n, t.Idle / time.Duration(r.Reps)
}

// MeasurePolicy runs a workload on a new pool of GOMAXPROCS workers under
// policy pol: one warm-up run, then reps timed runs, each after prepare
// (untimed), and closes the pool. The counts cover the timed runs only:
// each is the difference of pfor.Pool.Stats taken just before and just
// after a run, whose idle times include a period under way, so that a
// worker asleep between runs counts only the part of its sleep inside a
// run.
func MeasurePolicy(pol pfor.Policy, reps int, prepare func(), run func(p *pfor.Pool)) PolicyRun {
	p := pfor.NewPool(pfor.WithPolicy(pol))
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
			r.Workers = append(r.Workers, pfor.PoolWorkerStats{})
		}
		for k, a := range after {
			var b pfor.PoolWorkerStats // zero for a guest new in this run
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
