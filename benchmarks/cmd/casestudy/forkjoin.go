package main

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stealkit/stealkit/benchmarks/casestudy"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
)

// cell is one scheme's result for one row.
type cell struct {
	d    time.Duration
	peak int64
}

// table prints a case study's table, a row per value of rows, and adds its
// section to the report: per row a chart of tasks/ms per scheme, the
// sequential reference first, and a table of tasks/ms and peak stored.
// run measures one scheme at one row and returns the tasks of the row.
func (s *study) table(id, title, rowName string, rows []int, run func(row int, scheme string) (cell, int64)) {
	fmt.Fprintln(s.w, title)
	sec := s.section(id, title, "Bars: tasks per millisecond, the median over the timed runs; the table adds the peak number of tasks stored at once.")
	head := []string{rowName, "tasks", "sequential tasks/ms"}
	for _, sc := range casestudy.Schemes {
		head = append(head, sc+" tasks/ms", sc+" peak stored")
	}
	ht := htmlTable{Head: head}
	tw := tabwriter.NewWriter(s.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\ttasks\tsequential\t", rowName)
	for _, sc := range casestudy.Schemes {
		fmt.Fprintf(tw, "%s\tpeak stored\t", sc)
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
		for _, sc := range casestudy.Schemes {
			cells[sc], _ = run(r, sc)
		}
		fmt.Fprintf(tw, "%d\t%d\t%.0f\t", r, tasks, perMs(tasks, seq.d))
		row := []string{strconv.Itoa(r), strconv.FormatInt(tasks, 10), fmt.Sprintf("%.0f", perMs(tasks, seq.d))}
		bars := []report.Bar{rateBar(casestudy.Sequential, tasks, seq.d, "tasks")}
		for _, sc := range casestudy.Schemes {
			fmt.Fprintf(tw, "%.0f\t%d\t", perMs(tasks, cells[sc].d), cells[sc].peak)
			row = append(row, fmt.Sprintf("%.0f", perMs(tasks, cells[sc].d)), strconv.FormatInt(cells[sc].peak, 10))
			bars = append(bars, rateBar(sc, tasks, cells[sc].d, "tasks"))
		}
		st := cells[casestudy.Steal]
		for _, other := range []string{casestudy.Static, casestudy.Goroutine} {
			o := cells[other]
			fmt.Fprintf(tw, "%.2fx, %.3fx\t", float64(o.d)/float64(st.d), float64(st.peak)/float64(o.peak))
		}
		fmt.Fprintln(tw)
		ht.Rows = append(ht.Rows, row)
		sec.chart(fmt.Sprintf("%s %d: %d tasks, tasks/ms", rowName, r, tasks), bars)
	}
	tw.Flush()
	fmt.Fprintln(s.w)
	sec.Tables = append(sec.Tables, ht)
}

// rateBar is a bar of what per millisecond for a scheme that did n of it
// in d.
func rateBar(scheme string, n int64, d time.Duration, what string) report.Bar {
	v := perMs(n, d)
	return report.Bar{Label: scheme, Value: v, Colour: colours[scheme], Note: fmt.Sprintf("%.0f %s/ms", v, what)}
}

func (s *study) minimax() {
	s.table("minimax", "Four-in-a-row minimax, 6x7 board, fixed position 12 moves in, every position a task", "lookahead", s.o.lookaheads,
		func(look int, sc string) (cell, int64) {
			var tr casestudy.Tracker
			casestudy.Minimax(sc, look, &tr)
			tr.Done()
			d := median(s.o.reps, func() {}, func() { casestudy.Minimax(sc, look, nil) })
			return cell{d, tr.Peak}, tr.Tasks
		})
}

func (s *study) octree() {
	s.table("octree", "Octree partitioning, clustered particles (seed 1), octants with more than 32 particles split into new tasks", "particles", s.o.particles,
		func(n int, sc string) (cell, int64) {
			src := casestudy.Particles(n, 1)
			ps := slices.Clone(src)
			var tr casestudy.Tracker
			casestudy.Octree(sc, ps, &tr)
			tr.Done()
			d := median(s.o.reps, func() { copy(ps, src) }, func() { casestudy.Octree(sc, ps, nil) })
			return cell{d, tr.Peak}, tr.Tasks
		})
}

func (s *study) fib() {
	n, reps := s.o.fibN, s.o.reps
	seq := median(reps, func() {}, func() { casestudy.Fib(casestudy.Sequential, n, 0) })
	p := runtime.GOMAXPROCS(0)
	fmt.Fprintf(s.w, "fib(%d): sequential %v; forking every call with n >= cutoff, in both parallel schemes:\n", n, seq.Round(time.Microsecond))
	sec := s.section("fib", fmt.Sprintf("fib(%d), forking every call with n >= cutoff", n),
		fmt.Sprintf("Bars: forks per millisecond at each cutoff (for sequential, which does not fork, the same count over its time: %v).", seq.Round(time.Microsecond)),
		"Targets: goroutine / steal >= 5x, steal / (sequential/GOMAXPROCS) <= 2x.")
	ht := htmlTable{Head: []string{"cutoff", "forks", "steal", "goroutine", "goroutine / steal", fmt.Sprintf("steal / (sequential/%d)", p)}}
	tw := tabwriter.NewWriter(s.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "cutoff\tforks\tsteal\tgoroutine\tgoroutine / steal\tsteal / (sequential/%d)\t\n", p)
	for _, cut := range s.o.cutoffs {
		st := median(reps, func() {}, func() { casestudy.Fib(casestudy.Steal, n, cut) })
		gr := median(reps, func() {}, func() { casestudy.Fib(casestudy.Goroutine, n, cut) })
		forks := int64(casestudy.FibForks(n, cut))
		row := []string{strconv.Itoa(cut), strconv.FormatInt(forks, 10), st.Round(time.Microsecond).String(), gr.Round(time.Microsecond).String(),
			fmt.Sprintf("%.1fx", float64(gr)/float64(st)), fmt.Sprintf("%.2fx", float64(st)/(float64(seq)/float64(p)))}
		fmt.Fprintf(tw, "%s\t\n", strings.Join(row, "\t"))
		ht.Rows = append(ht.Rows, row)
		sec.chart(fmt.Sprintf("cutoff %d: %d forks, forks/ms", cut, forks), []report.Bar{
			rateBar(casestudy.Sequential, forks, seq, "forks"), rateBar(casestudy.Steal, forks, st, "forks"), rateBar(casestudy.Goroutine, forks, gr, "forks")})
	}
	tw.Flush()
	sec.Tables = append(sec.Tables, ht)
	fmt.Fprintln(s.w, "targets: goroutine / steal >= 5x, steal / (sequential/GOMAXPROCS) <= 2x")
	fmt.Fprintln(s.w)
}

func (s *study) sort() {
	n := s.o.sortN
	fmt.Fprintf(s.w, "Sort of %d int64s (uniform, fixed seed)\n", n)
	src := casestudy.SortInput(n)
	x := make([]int64, n)
	ds := map[string]time.Duration{}
	for _, sc := range []string{casestudy.Sequential, casestudy.Steal} {
		ds[sc] = median(s.o.reps, func() { copy(x, src) }, func() { casestudy.Sort(sc, x) })
	}
	seq, st := ds[casestudy.Sequential], ds[casestudy.Steal]
	fmt.Fprintf(s.w, "  slices.Sort %v; pfor.Sort %v: %.2fx faster (target >= 1.5x)\n\n",
		seq.Round(time.Millisecond), st.Round(time.Millisecond), float64(seq)/float64(st))
	sec := s.section("sort", fmt.Sprintf("Sort of %d int64s (uniform, fixed seed)", n),
		fmt.Sprintf("slices.Sort %v; pfor.Sort %v: %.2fx faster (target >= 1.5x).", seq.Round(time.Microsecond), st.Round(time.Microsecond), float64(seq)/float64(st)))
	seqBar, stBar := rateBar(casestudy.Sequential, int64(n), seq, "int64s"), rateBar(casestudy.Steal, int64(n), st, "int64s")
	seqBar.Label, stBar.Label = "slices.Sort", "pfor.Sort"
	sec.chart("int64s sorted per ms", []report.Bar{seqBar, stBar})
}
