// Command casestudy prints the comparison of the chapter "Dynamic Load
// Balancing Using Work-Stealing" (GPU Computing Gems Jade Edition) as run
// on this machine's CPUs: for a four-in-a-row minimax search and an
// octree partitioning, the chapter's static level-by-level scheme,
// stealkit's work-stealing task pool and a goroutine per task, in tasks per
// millisecond and peak tasks stored (stealkit appears twice: forking with
// pfor.Both, "steal", and spawning into a pfor.Group, "group"); then fib
// and a merge sort against their baselines.
//
//	go run -C benchmarks ./cmd/casestudy                 # everything, about a minute on 2 cores
//	go run -C benchmarks ./cmd/casestudy -only fib,sort -reps 9
//	go run -C benchmarks ./cmd/casestudy -only policies   # stealing vs dealing vs balancing
//
// Times are medians over -reps timed runs after one warm-up; peaks come
// from one more, untimed run that counts (see casestudy.Tracker).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stealkit/stealkit/benchmarks/casestudy"
)

func main() {
	looks := flag.String("lookahead", "4,5,6,7", "comma-separated minimax lookaheads (plies)")
	parts := flag.String("particles", "100000,500000,1000000,2000000", "comma-separated octree particle counts")
	reps := flag.Int("reps", 5, "timed runs per cell; the table shows the median")
	fibN := flag.Int("fib", 32, "n of the fib benchmark")
	cuts := flag.String("cutoff", "8,10,12", "comma-separated fib cutoffs: calls with n below one are sequential")
	sortN := flag.Int("sort", 10_000_000, "number of int64s of the sort benchmark")
	only := flag.String("only", "minimax,octree,fib,sort", "comma-separated parts to run")
	flag.Parse()
	if *reps < 1 {
		fail(fmt.Errorf("-reps %d: need at least 1", *reps))
	}
	lookaheads, err := ints(*looks)
	if err != nil {
		fail(fmt.Errorf("-lookahead: %v", err))
	}
	particles, err := ints(*parts)
	if err != nil {
		fail(fmt.Errorf("-particles: %v", err))
	}
	cutoffs, err := ints(*cuts)
	if err != nil {
		fail(fmt.Errorf("-cutoff: %v", err))
	}
	fmt.Printf("GOMAXPROCS=%d, %s/%s, %s; median of %d runs\n\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version(), *reps)
	for _, part := range strings.Split(*only, ",") {
		switch part {
		case "minimax":
			minimax(lookaheads, *reps)
		case "octree":
			octree(particles, *reps)
		case "fib":
			fib(*fibN, cutoffs, *reps)
		case "matrix":
			matrixBench(*reps)
		case "sort":
			sortBench(*sortN, *reps)
		case "policies":
			policies(*fibN, cutoffs, lookaheads, particles, *reps)
		default:
			fail(fmt.Errorf("-only: unknown part %q", part))
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "casestudy:", err)
	flag.Usage()
	os.Exit(2)
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a count", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// median times run reps times after a warm-up, with prepare (untimed)
// before each, and returns the median.
func median(reps int, prepare, run func()) time.Duration {
	prepare()
	run()
	ds := make([]time.Duration, reps)
	for i := range ds {
		prepare()
		t0 := time.Now()
		run()
		ds[i] = time.Since(t0)
	}
	slices.Sort(ds)
	return ds[reps/2]
}

// cell is one scheme's result for one row.
type cell struct {
	d    time.Duration
	peak int64
}

func perMs(tasks int64, d time.Duration) float64 { return float64(tasks) / (float64(d) / 1e6) }

func table(title, rowName string, rows []int, run func(row int, scheme string) (cell, int64)) {
	fmt.Println(title)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\ttasks\tsequential\t", rowName)
	for _, s := range casestudy.Schemes {
		fmt.Fprintf(tw, "%s\tpeak stored\t", s)
	}
	fmt.Fprintf(tw, "steal vs static\tsteal vs goroutine\t\n")
	fmt.Fprintf(tw, "\t\ttasks/ms\t")
	for range casestudy.Schemes {
		fmt.Fprintf(tw, "tasks/ms\t\t")
	}
	fmt.Fprintf(tw, "speed, memory\tspeed, memory\t\n")
	for _, r := range rows {
		cells := map[string]cell{}
		seq, tasks := run(r, casestudy.Sequential)
		for _, s := range casestudy.Schemes {
			cells[s], _ = run(r, s)
		}
		fmt.Fprintf(tw, "%d\t%d\t%.0f\t", r, tasks, perMs(tasks, seq.d))
		for _, s := range casestudy.Schemes {
			fmt.Fprintf(tw, "%.0f\t%d\t", perMs(tasks, cells[s].d), cells[s].peak)
		}
		st := cells[casestudy.Steal]
		for _, other := range []string{casestudy.Static, casestudy.Goroutine} {
			o := cells[other]
			fmt.Fprintf(tw, "%.2fx, %.3fx\t", float64(o.d)/float64(st.d), float64(st.peak)/float64(o.peak))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Println()
}

func minimax(lookaheads []int, reps int) {
	table("Four-in-a-row minimax, 6x7 board, fixed position 12 moves in, every position a task", "lookahead", lookaheads,
		func(look int, s string) (cell, int64) {
			var tr casestudy.Tracker
			casestudy.Minimax(s, look, &tr)
			tr.Done()
			d := median(reps, func() {}, func() { casestudy.Minimax(s, look, nil) })
			return cell{d, tr.Peak}, tr.Tasks
		})
}

func octree(particles []int, reps int) {
	table("Octree partitioning, clustered particles (seed 1), octants with more than 32 particles split into new tasks", "particles", particles,
		func(n int, s string) (cell, int64) {
			src := casestudy.Particles(n, 1)
			ps := slices.Clone(src)
			var tr casestudy.Tracker
			casestudy.Octree(s, ps, &tr)
			tr.Done()
			d := median(reps, func() { copy(ps, src) }, func() { casestudy.Octree(s, ps, nil) })
			return cell{d, tr.Peak}, tr.Tasks
		})
}

func fib(n int, cutoffs []int, reps int) {
	seq := median(reps, func() {}, func() { casestudy.Fib(casestudy.Sequential, n, 0) })
	p := runtime.GOMAXPROCS(0)
	fmt.Printf("fib(%d): sequential %v; forking every call with n >= cutoff, in both parallel schemes:\n", n, seq.Round(time.Microsecond))
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "cutoff\tforks\tsteal\tgoroutine\tgoroutine / steal\tsteal / (sequential/%d)\t\n", p)
	for _, cut := range cutoffs {
		st := median(reps, func() {}, func() { casestudy.Fib(casestudy.Steal, n, cut) })
		gr := median(reps, func() {}, func() { casestudy.Fib(casestudy.Goroutine, n, cut) })
		fmt.Fprintf(tw, "%d\t%d\t%v\t%v\t%.1fx\t%.2fx\t\n", cut, casestudy.FibForks(n, cut),
			st.Round(time.Microsecond), gr.Round(time.Microsecond), float64(gr)/float64(st), float64(st)/(float64(seq)/float64(p)))
	}
	tw.Flush()
	fmt.Println("targets: goroutine / steal >= 5x, steal / (sequential/GOMAXPROCS) <= 2x")
	fmt.Println()
}

func sortBench(n, reps int) {
	fmt.Printf("Sort of %d int64s (uniform, fixed seed)\n", n)
	src := casestudy.SortInput(n)
	x := make([]int64, n)
	ds := map[string]time.Duration{}
	for _, s := range []string{casestudy.Sequential, casestudy.Steal} {
		ds[s] = median(reps, func() { copy(x, src) }, func() { casestudy.Sort(s, x) })
	}
	fmt.Printf("  slices.Sort %v; pfor.Sort %v: %.2fx faster (target >= 1.5x)\n\n",
		ds[casestudy.Sequential].Round(time.Millisecond), ds[casestudy.Steal].Round(time.Millisecond),
		float64(ds[casestudy.Sequential])/float64(ds[casestudy.Steal]))
}
