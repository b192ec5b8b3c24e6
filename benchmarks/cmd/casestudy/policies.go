package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stealkit/stealkit/benchmarks/casestudy"
	"github.com/stealkit/stealkit/benchmarks/internal/distrib"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
)

// A policyWorkload is a workload of the policy comparison: its tasks per
// run, the untimed reset before each run, and the run on a pool, which
// reports whether its result equals the sequential one.
type policyWorkload struct {
	name    string
	tasks   int64
	prepare func()
	run     func(p *distrib.Pool) bool
}

// policyWorkloads returns fib (each cutoff), minimax (each lookahead) and
// the octree (each particle count), in that order.
func (s *study) policyWorkloads() []policyWorkload {
	var wls []policyWorkload
	fibN := s.o.fibN
	want := casestudy.Fib(casestudy.Sequential, fibN, 0)
	for _, cut := range s.o.cutoffs {
		wls = append(wls, policyWorkload{fmt.Sprintf("fib %d, cutoff %d", fibN, cut), int64(casestudy.FibForks(fibN, cut)), func() {},
			func(p *distrib.Pool) bool { return casestudy.FibOn(p, fibN, cut) == want }})
	}
	for _, look := range s.o.lookaheads {
		var tr casestudy.Tracker
		v := casestudy.Minimax(casestudy.Sequential, look, &tr)
		tr.Done()
		wls = append(wls, policyWorkload{fmt.Sprintf("minimax, lookahead %d", look), tr.Tasks, func() {},
			func(p *distrib.Pool) bool { return casestudy.MinimaxOn(p, look, nil) == v }})
	}
	for _, n := range s.o.particles {
		src := casestudy.Particles(n, 1)
		ps := slices.Clone(src)
		var tr casestudy.Tracker
		r := casestudy.Octree(casestudy.Sequential, ps, &tr)
		tr.Done()
		wls = append(wls, policyWorkload{fmt.Sprintf("octree, %d particles", n), tr.Tasks, func() { copy(ps, src) },
			func(p *distrib.Pool) bool { return casestudy.OctreeOn(p, ps, nil) == r }})
	}
	return wls
}

// policies prints the comparison of the task pool's distribution policies
// on the policy workloads: per policy, tasks per millisecond, and per run
// the tasks that migrated, the tasks moved between queues, and each
// worker's idle time (the pool's workers, then the guest: the goroutine in
// Run). The report gets a chart of tasks/ms per policy for each workload,
// and the table with a column per worker. policies returns an error if a
// run's result differs from the sequential one.
func (s *study) policies() error {
	reps := s.o.reps
	title := fmt.Sprintf("Distribution policies: each workload forking with Both on a pool of %d workers under each policy (benchmarks/internal/distrib)", runtime.GOMAXPROCS(0))
	legend := "tasks/ms: positions, octants or forks as in the case studies; per run: migrated = tasks run by a worker other than their forker, moved = tasks dealt or balanced to another queue, idle per worker: pool workers, then the caller"
	fmt.Fprintln(s.w, title)
	fmt.Fprintf(s.w, "(%s)\n", legend)
	sec := s.section("policies", title, "Bars: tasks per millisecond under each policy, the median over the timed runs. Table: "+legend+".")
	ht := htmlTable{Head: []string{"workload", "tasks", "policy", "tasks/ms", "vs stealing", "forks/run", "migrated/run", "moved/run"}}
	workers := 0 // idle columns in ht
	tw := tabwriter.NewWriter(s.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "workload\ttasks\tpolicy\ttasks/ms\tvs stealing\tforks/run\tmigrated/run\tmoved/run\tidle/worker/run\t\n")
	for _, wl := range s.policyWorkloads() {
		var steal time.Duration
		var bars []report.Bar
		for _, pol := range casestudy.Policies {
			ok := true
			r := casestudy.MeasurePolicy(pol, reps, wl.prepare, func(p *distrib.Pool) { ok = wl.run(p) && ok })
			if !ok {
				return fmt.Errorf("policies: %s under %s: a run's result differs from the sequential one", wl.name, pol)
			}
			if pol == distrib.Stealing {
				steal = r.Time
			}
			ran, migrated, moved, _ := r.PerRun()
			idle := make([]string, len(r.Workers))
			for i, w := range r.Workers {
				idle[i] = (w.Idle / time.Duration(reps)).Round(time.Microsecond).String()
			}
			for ; workers < len(r.Workers); workers++ {
				ht.Head = append(ht.Head, "idle "+workerName(workers, r.Workers[workers]))
			}
			row := []string{wl.name, fmt.Sprint(wl.tasks), pol.String(), fmt.Sprintf("%.0f", perMs(wl.tasks, r.Time)),
				fmt.Sprintf("%.2fx", float64(steal)/float64(r.Time)), fmt.Sprintf("%.0f", ran), fmt.Sprintf("%.0f", migrated), fmt.Sprintf("%.0f", moved)}
			fmt.Fprintf(tw, "%s\t%s\t\n", strings.Join(row, "\t"), strings.Join(idle, " "))
			ht.Rows = append(ht.Rows, append(row, idle...))
			bars = append(bars, rateBar(pol.String(), wl.tasks, r.Time, "tasks"))
		}
		sec.chart(fmt.Sprintf("%s: %d tasks, tasks/ms", wl.name, wl.tasks), bars)
	}
	tw.Flush()
	fmt.Fprintln(s.w)
	for i, row := range ht.Rows {
		for len(row) < len(ht.Head) {
			row = append(row, "-")
		}
		ht.Rows[i] = row
	}
	sec.Tables = append(sec.Tables, ht)
	return nil
}

// workerName names the i-th worker of a pool's statistics in a column
// head: "w0", "w1", ... for the pool's workers, "guest" for the caller.
func workerName(i int, w distrib.WorkerStats) string {
	if w.Guest {
		return "guest"
	}
	return fmt.Sprintf("w%d", i)
}
