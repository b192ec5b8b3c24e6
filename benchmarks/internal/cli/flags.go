// Package cli is the stealbench command: flag parsing and the three modes (comparison,
// comparison under noise, scaling simulation).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
)

// DefaultScale is the work scale of the default comparison: a quarter of each workload's
// work per repetition (see workloads.Workload.Size), so that the whole comparison stays well
// under 2 minutes on 2 cores. -scale 1 runs the sizes of benchmarks/WORKLOADS.md.
const DefaultScale = 0.25

// maxWorkers bounds -workers; the simulator handles any count, a real run this many goroutines.
const maxWorkers = 4096

// Options are the parsed command line.
type Options struct {
	Workloads  []workloads.Workload // -workloads, in report order
	Impls      []impls.Impl         // -impls
	Workers    []int                // -workers, increasing
	N          int                  // -n: items of every workload; 0 to use Scale
	Scale      float64              // -scale: work per repetition relative to WORKLOADS.md
	Repeat     int                  // -repeat: timed repetitions per cell
	Out        string               // -out: directory of the report files
	JSON       bool                 // -json: also write results.json
	CPUProfile string               // -cpuprofile: file of a CPU profile of the run; "" for none
	Trace      string               // -trace: file of a runtime/trace of the run; "" for none
	Noise      bool                 // -noise: run beside a burner process
	Simulate   bool                 // -simulate: run the scaling simulator instead
	Replay     string               // with Simulate: the results.json whose calibration to predict from again
	Timeline   string               // workload whose timeline the report draws; "" for none
	// Neighbour, with Replay: predict beside a busy process whose thread shares the cores,
	// time-sliced in slices this long (see simulate.Neighbour); 0 for none.
	Neighbour time.Duration
}

const usageHead = `usage: stealbench [flags]

Compares stealkit's partitioners with hand-written loops and peer libraries on the
benchmark workloads, prints a table and writes an HTML report (and JSON with -json).
With -simulate it predicts scaling to more workers than the machine has, and checks
the prediction against measurements at 1 and 2 workers.

flags:
`

// Parse parses args (without the program name). On a bad flag or value it writes the error
// and the usage to stderr and returns an error; for -h or -help it writes the usage and
// returns flag.ErrHelp.
func Parse(args []string, stderr io.Writer) (Options, error) {
	fs := flag.NewFlagSet("stealbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nworkloads: %s\nimpls: %s\n", strings.Join(workloads.Names(), ", "), strings.Join(impls.Names(), ", "))
	}
	var o Options
	wls := fs.String("workloads", "all", "comma-separated `names` of workloads to run, or all")
	ims := fs.String("impls", "all", "comma-separated `names` of implementations to compare, or all (sequential always runs; -simulate uses stealkit's partitioners)")
	wks := fs.String("workers", "", "comma-separated worker `counts` (default GOMAXPROCS; with -simulate 1,2,4,...,256)")
	fs.IntVar(&o.N, "n", 0, "number of items for every workload (overrides -scale)")
	fs.Float64Var(&o.Scale, "scale", DefaultScale, "work per repetition relative to benchmarks/WORKLOADS.md (1 = its sizes)")
	fs.IntVar(&o.Repeat, "repeat", 5, "timed repetitions per measurement, after one warm-up; the median is reported")
	fs.StringVar(&o.Out, "out", "out", "`directory` for report.html (and results.json)")
	fs.BoolVar(&o.JSON, "json", false, "also write results.json, the machine-readable results")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the run to `file`")
	fs.StringVar(&o.Trace, "trace", "", "write a runtime/trace of the run to `file`")
	fs.BoolVar(&o.Noise, "noise", false, "run the comparison while a second process burns one core")
	fs.BoolVar(&o.Simulate, "simulate", false, "predict scaling in virtual time and validate at 1 and 2 workers")
	fs.StringVar(&o.Replay, "replay", "", "with -simulate: predict again from the calibration recorded in `file` (an earlier -simulate -json run's results.json), measuring nothing")
	fs.DurationVar(&o.Neighbour, "neighbour", 0, "with -simulate -replay: predict beside a busy thread that shares the calibration's cores with the workers, the OS time-slicing them fairly in slices this `long` (e.g. 3ms)")
	fs.StringVar(&o.Timeline, "timeline", "tailheavy", "`workload` whose per-worker timeline the report draws, or none")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	fail := func(format string, a ...any) (Options, error) {
		err := fmt.Errorf(format, a...)
		fmt.Fprintf(stderr, "stealbench: %v\n", err)
		fs.Usage()
		return o, err
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	var err error
	if o.Workloads, err = pick(*wls, workloads.ByName, workloads.All); err != nil {
		return fail("-workloads: %v", err)
	}
	if o.Impls, err = pick(*ims, impls.ByName, impls.All); err != nil {
		return fail("-impls: %v", err)
	}
	if o.Workers, err = parseWorkers(*wks, o.Simulate); err != nil {
		return fail("-workers: %v", err)
	}
	switch {
	case o.N < 0:
		return fail("-n %d: must not be negative", o.N)
	case !(o.Scale > 0) || o.Scale > 1e3:
		return fail("-scale %g: must be above 0 and at most 1000", o.Scale)
	case o.Repeat < 1:
		return fail("-repeat %d: need at least one", o.Repeat)
	case o.Noise && o.Simulate:
		return fail("-noise and -simulate cannot be combined")
	case o.Replay != "" && !o.Simulate:
		return fail("-replay needs -simulate")
	case o.Neighbour < 0:
		return fail("-neighbour %v: must not be negative", o.Neighbour)
	case o.Neighbour > 0 && o.Replay == "":
		return fail("-neighbour needs -simulate -replay")
	case o.Replay != "" && o.JSON && filepath.Clean(o.Replay) == filepath.Join(o.Out, "results.json"):
		return fail("-replay %s: -json would write over it; choose another -out", o.Replay)
	case o.Out == "":
		return fail("-out: need a directory")
	}
	if o.Timeline == "none" || o.Simulate {
		o.Timeline = ""
	} else if _, ok := workloads.ByName(o.Timeline); !ok {
		return fail("-timeline: unknown workload %q", o.Timeline)
	}
	return o, nil
}

// pick resolves a comma-separated list of names, or "all".
func pick[T any](list string, byName func(string) (T, bool), all func() []T) ([]T, error) {
	if list == "all" {
		return all(), nil
	}
	var out []T
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		x, ok := byName(name)
		if !ok {
			return nil, fmt.Errorf("unknown name %q", name)
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, errors.New("empty list")
	}
	return out, nil
}

// parseWorkers parses a comma-separated list of worker counts; "" gives the mode's default.
func parseWorkers(list string, simulate bool) ([]int, error) {
	if list == "" {
		if simulate {
			return []int{1, 2, 4, 8, 16, 32, 64, 128, 256}, nil
		}
		return []int{runtime.GOMAXPROCS(0)}, nil
	}
	var ws []int
	for _, f := range strings.Split(list, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 || k > maxWorkers {
			return nil, fmt.Errorf("%q is not a worker count from 1 to %d", f, maxWorkers)
		}
		if len(ws) > 0 && k <= ws[len(ws)-1] {
			return nil, fmt.Errorf("counts must increase: %d after %d", k, ws[len(ws)-1])
		}
		ws = append(ws, k)
	}
	return ws, nil
}
