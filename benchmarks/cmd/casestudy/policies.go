package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stealkit/stealkit/benchmarks/casestudy"
	"github.com/stealkit/stealkit/pfor"
)

// policies prints the comparison of the task pool's distribution policies
// on fib (each cutoff), minimax (each lookahead) and the octree (each
// particle count): per policy, tasks per millisecond, and per run the tasks
// that migrated, the tasks moved between queues, and each worker's idle
// time (the pool's workers, then the guest: the goroutine in Run).
func policies(fibN int, cutoffs, lookaheads, particles []int, reps int) {
	type workload struct {
		name    string
		tasks   int64
		prepare func()
		run     func(p *pfor.Pool)
	}
	var wls []workload
	want := casestudy.Fib(casestudy.Sequential, fibN, 0)
	for _, cut := range cutoffs {
		wls = append(wls, workload{fmt.Sprintf("fib %d, cutoff %d", fibN, cut), int64(casestudy.FibForks(fibN, cut)), func() {},
			func(p *pfor.Pool) { check(casestudy.FibOn(p, fibN, cut) == want, "fib") }})
	}
	for _, look := range lookaheads {
		var tr casestudy.Tracker
		v := casestudy.Minimax(casestudy.Sequential, look, &tr)
		tr.Done()
		wls = append(wls, workload{fmt.Sprintf("minimax, lookahead %d", look), tr.Tasks, func() {},
			func(p *pfor.Pool) { check(casestudy.MinimaxOn(p, look, nil) == v, "minimax") }})
	}
	for _, n := range particles {
		src := casestudy.Particles(n, 1)
		ps := slices.Clone(src)
		var tr casestudy.Tracker
		r := casestudy.Octree(casestudy.Sequential, ps, &tr)
		tr.Done()
		wls = append(wls, workload{fmt.Sprintf("octree, %d particles", n), tr.Tasks, func() { copy(ps, src) },
			func(p *pfor.Pool) { check(casestudy.OctreeOn(p, ps, nil) == r, "octree") }})
	}
	fmt.Printf("Distribution policies: each workload forking with pfor.Both on pfor.NewPool(pfor.WithPolicy(...)), %d workers\n", runtime.GOMAXPROCS(0))
	fmt.Println("(tasks/ms: positions, octants or forks as in the tables above; per run: migrated = tasks run by a worker other than their forker, moved = tasks dealt or balanced to another queue, idle per worker: pool workers, then the caller)")
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "workload\ttasks\tpolicy\ttasks/ms\tvs stealing\tforks/run\tmigrated/run\tmoved/run\tidle/worker/run\t\n")
	for _, wl := range wls {
		var steal time.Duration
		for _, pol := range casestudy.Policies {
			r := casestudy.MeasurePolicy(pol, reps, wl.prepare, wl.run)
			if pol == pfor.Stealing {
				steal = r.Time
			}
			ran, migrated, moved, _ := r.PerRun()
			idle := make([]string, len(r.Workers))
			for i, w := range r.Workers {
				idle[i] = (w.Idle / time.Duration(reps)).Round(time.Microsecond).String()
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%.0f\t%.2fx\t%.0f\t%.0f\t%.0f\t%s\t\n", wl.name, wl.tasks, pol,
				perMs(wl.tasks, r.Time), float64(steal)/float64(r.Time), ran, migrated, moved, strings.Join(idle, " "))
		}
	}
	tw.Flush()
	fmt.Println()
}

// check fails the command if a parallel run's result differs from the
// sequential one.
func check(ok bool, what string) {
	if !ok {
		fmt.Fprintf(os.Stderr, "casestudy: %s: a parallel run differs from the sequential one\n", what)
		os.Exit(1)
	}
}
