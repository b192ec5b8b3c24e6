package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
)

// Tolerance is the largest relative error the simulator's validation accepts.
const Tolerance = 0.15

// tolerance and disturbedCores are the simulator validation's tolerance and the load of others
// above which a check does not count (0: simulate.Disturbed); the tests change them.
var (
	tolerance      = Tolerance
	disturbedCores = 0.0
)

// Main runs stealbench with args (without the program name) and returns the exit code: 0 on
// success, 1 on a failed run, 2 on a bad command line.
func Main(args []string, stdout, stderr io.Writer) int {
	o, err := Parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if err := run(o, append([]string{"stealbench"}, args...), stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "stealbench: %v\n", err)
		return 1
	}
	return 0
}

// run runs the mode o asks for, prints its results and writes its files; argv is the
// command line as the report records it.
func run(o Options, argv []string, stdout, stderr io.Writer) (err error) {
	start := time.Now()
	otherLoad := report.OtherLoad()
	rep := &report.Report{Meta: report.CollectMeta(argv, start)}
	rep.Meta.Scale, rep.Meta.N, rep.Meta.Repeat, rep.Meta.PeerTasks, rep.Meta.Noise = o.Scale, o.N, o.Repeat, impls.PeerTasksPerWorker, o.Noise
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	stop, err := startProfiles(o)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, stop()) }()

	m := rep.Meta
	fmt.Fprintf(stdout, "stealbench %s: %s, GOMAXPROCS %d, %s, load average %s\n", m.Date, m.CPU, m.GOMAXPROCS, m.GoVersion, m.LoadAvg)
	switch {
	case o.Replay != "":
		err = replayRun(o, rep, stdout)
	case o.Simulate:
		err = simulateRun(o, rep, stdout, stderr)
	default:
		err = compareRun(o, rep, stdout, stderr)
	}
	if err != nil {
		return err
	}
	rep.Meta.Elapsed = time.Since(start).Seconds()
	rep.Meta.OtherLoad, rep.Meta.HostLoad = otherLoad()
	fmt.Fprintf(stdout, "\nversions: %s\n", versionLine(rep.Meta.Versions))
	if l := rep.Meta.OtherLoad; l >= 0 {
		fmt.Fprintf(stdout, "other processes kept %.2f of %d CPUs busy during the run", l, rep.Meta.NumCPU)
		if h := rep.Meta.HostLoad; h > 0 {
			fmt.Fprintf(stdout, " (the host's steal time %.2f of it)", h)
		}
		if l > 0.1 {
			fmt.Fprint(stdout, ": the machine was shared, and parallel times suffer")
		}
		fmt.Fprintln(stdout)
	}
	if err := writeFiles(o, rep); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "report: %s", filepath.Join(o.Out, "report.html"))
	if len(rep.Results) > 0 {
		fmt.Fprintf(stdout, ", chart: %s", filepath.Join(o.Out, "report.svg"))
	}
	if o.JSON {
		fmt.Fprintf(stdout, ", results: %s", filepath.Join(o.Out, "results.json"))
	}
	fmt.Fprintf(stdout, "\ntook %.1f s\n", rep.Meta.Elapsed)
	return nil
}

// writeFiles writes report.html, report.svg (the speedup charts as one image) when the run
// has measured results, and results.json with -json, into o.Out.
func writeFiles(o Options, rep *report.Report) error {
	if err := writeFile(filepath.Join(o.Out, "report.html"), rep, report.WriteHTML); err != nil {
		return err
	}
	if len(rep.Results) > 0 {
		if err := writeFile(filepath.Join(o.Out, "report.svg"), rep, report.WriteSVG); err != nil {
			return err
		}
	}
	if !o.JSON {
		return nil
	}
	return writeFile(filepath.Join(o.Out, "results.json"), rep, report.WriteJSON)
}

// writeFile creates the file name and writes rep into it with write.
func writeFile(name string, rep *report.Report, write func(io.Writer, *report.Report) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	err = write(f, rep)
	return errors.Join(err, f.Close())
}

// startProfiles starts the CPU profile and the trace that o asks for, and returns the
// function that stops them and closes their files.
func startProfiles(o Options) (stop func() error, err error) {
	var stops []func() error
	stop = func() error {
		var errs []error
		for i := len(stops) - 1; i >= 0; i-- {
			errs = append(errs, stops[i]())
		}
		return errors.Join(errs...)
	}
	if o.CPUProfile != "" {
		f, err := os.Create(o.CPUProfile)
		if err != nil {
			return stop, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return stop, err
		}
		stops = append(stops, func() error { pprof.StopCPUProfile(); return f.Close() })
	}
	if o.Trace != "" {
		f, err := os.Create(o.Trace)
		if err != nil {
			return stop, errors.Join(err, stop())
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return stop, errors.Join(err, stop())
		}
		stops = append(stops, func() error { trace.Stop(); return f.Close() })
	}
	return stop, nil
}

// versionLine lists Go's version and each module in the build, with the implementations that
// use it.
func versionLine(vs []report.Version) string {
	users := map[string][]string{"github.com/stealkit/stealkit": {"stealkit"}}
	for _, im := range impls.All() {
		if im.Module != "" {
			users[im.Module] = append(users[im.Module], im.Name)
		}
	}
	s := runtime.Version()
	for _, v := range vs {
		u, ok := users[v.Path]
		if !ok {
			continue // a dependency of a dependency
		}
		s += fmt.Sprintf("; %s %s", v.Path, v.Version)
		if v.Replace != "" {
			s += " (=> " + v.Replace + ")"
		}
		s += " for " + strings.Join(u, ", ")
	}
	return s
}
