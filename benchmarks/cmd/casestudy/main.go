// Command casestudy prints the comparison of the chapter "Dynamic Load
// Balancing Using Work-Stealing" (GPU Computing Gems Jade Edition), run
// on the CPUs at hand: for a four-in-a-row minimax search and an
// octree partitioning, the chapter's static level-by-level scheme,
// stealkit's work-stealing task pool and a goroutine per task, in tasks per
// millisecond and peak tasks stored (stealkit appears twice: forking with
// pfor.Both, "steal", and spawning into a pfor.Group, "group"); then fib
// and a merge sort against their baselines. With -only it also runs the
// textbook matrix examples (matrix: time and speedup of each variant) and
// three distribution policies on a pool of their own (policies: tasks/ms, migrations and
// idle time per worker under stealing, dealing and balancing).
//
//	go run -C benchmarks ./cmd/casestudy                          # the case studies, about a minute on 2 cores
//	go run -C benchmarks ./cmd/casestudy -only fib,sort -reps 9
//	go run -C benchmarks ./cmd/casestudy -only matrix,policies    # about another minute
//	go run -C benchmarks ./cmd/casestudy -only all
//
// Besides the tables on standard output it writes out/casestudy.html (see
// -out): one self-contained page, inline SVG and no network, with each
// part's results as bar charts and its tables.
//
// Times are medians over -reps timed runs after one warm-up; peaks come
// from one more, untimed run that counts (see casestudy.Tracker).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/report"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run runs casestudy with args (without the program name), printing the
// tables to stdout and writing the report, and returns the exit code: 0 on
// success, 1 if a parallel result differs from the sequential one or the
// report cannot be written, 2 on a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	start := time.Now()
	s := &study{o: o, w: stdout, page: &page{Meta: report.CollectMeta(append([]string{"casestudy"}, args...), start), Reps: o.reps}}
	if err := s.run(); err != nil {
		fmt.Fprintf(stderr, "casestudy: %v\n", err)
		return 1
	}
	s.page.Meta.Elapsed = time.Since(start).Seconds()
	path := filepath.Join(o.out, "casestudy.html")
	if err := writeFile(path, s.page); err != nil {
		fmt.Fprintf(stderr, "casestudy: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "report: %s\n", path)
	return 0
}

// A study is one run of the command: its options, where the tables go and
// the report the parts add their sections to.
type study struct {
	o    options
	w    io.Writer
	page *page
}

// run runs the parts o asks for, in order.
func (s *study) run() error {
	fmt.Fprintf(s.w, "GOMAXPROCS=%d, %s/%s, %s; median of %d runs\n\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version(), s.o.reps)
	for _, part := range s.o.parts {
		var err error
		switch part {
		case "minimax":
			s.minimax()
		case "octree":
			s.octree()
		case "fib":
			s.fib()
		case "sort":
			s.sort()
		case "matrix":
			err = s.matrix()
		case "policies":
			err = s.policies()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// section adds a section to the report and returns it, for the part to
// fill in.
func (s *study) section(id, title string, text ...string) *section {
	sec := &section{ID: id, Title: title, Text: text}
	s.page.Sections = append(s.page.Sections, sec)
	return sec
}

// writeFile writes the report to path, creating its directory.
func writeFile(path string, p *page) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(writeHTML(f, p), f.Close())
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

func perMs(tasks int64, d time.Duration) float64 { return float64(tasks) / (float64(d) / 1e6) }
