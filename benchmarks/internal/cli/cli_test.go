package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/cli"
	"github.com/stealkit/stealkit/benchmarks/internal/noise"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
)

func TestMain(m *testing.M) {
	noise.MaybeBurn() // the -noise test re-executes the test binary as the burner
	os.Exit(m.Run())
}

func TestParseDefaults(t *testing.T) {
	o, err := cli.Parse(nil, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Workloads) != 10 || len(o.Impls) != 21 || !slices.Equal(o.Workers, []int{runtime.GOMAXPROCS(0)}) ||
		o.Scale != cli.DefaultScale || o.Repeat != 5 || o.Out != "out" || o.Timeline != "tailheavy" || o.JSON || o.Noise || o.Simulate {
		t.Errorf("Parse(nil) = %+v", o)
	}
	o, err = cli.Parse([]string{"-simulate"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Workers, []int{1, 2, 4, 8, 16, 32, 64, 128, 256}) || o.Timeline != "" {
		t.Errorf("Parse(-simulate): workers %v, timeline %q; want 1..256 and none", o.Workers, o.Timeline)
	}
}

func TestParseFlags(t *testing.T) {
	args := []string{"-workloads", "tiny, spmv", "-impls", "auto,pond", "-workers", "1,2,8", "-n", "100", "-scale", "0.5",
		"-repeat", "3", "-out", "x", "-json", "-cpuprofile", "c.prof", "-trace", "t.trace", "-noise", "-timeline", "none"}
	o, err := cli.Parse(args, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Workloads) != 2 || o.Workloads[1].Name != "spmv" || len(o.Impls) != 2 || o.Impls[1].Name != "pond" ||
		!slices.Equal(o.Workers, []int{1, 2, 8}) || o.N != 100 || o.Scale != 0.5 || o.Repeat != 3 || o.Out != "x" ||
		!o.JSON || o.CPUProfile != "c.prof" || o.Trace != "t.trace" || !o.Noise || o.Timeline != "" {
		t.Errorf("Parse(%q) = %+v", args, o)
	}
}

// TestBadFlags: every bad command line exits 2 with the error and the usage on stderr.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-nosuchflag"},
		{"-workloads", "saxpy,nosuch"},
		{"-workloads", ""},
		{"-impls", "openmp"},
		{"-workers", "0"},
		{"-workers", "2,1"},
		{"-workers", "two"},
		{"-n", "-1"},
		{"-scale", "0"},
		{"-scale", "NaN"},
		{"-repeat", "0"},
		{"-noise", "-simulate"},
		{"-timeline", "nosuch"},
		{"-out", ""},
		{"extra"},
	} {
		var stdout, stderr strings.Builder
		if code := cli.Main(args, &stdout, &stderr); code != 2 {
			t.Errorf("Main(%q) = %d; want 2", args, code)
		}
		if !strings.Contains(stderr.String(), "usage: stealbench") || stdout.Len() != 0 {
			t.Errorf("Main(%q): stderr %q, stdout %q; want the usage on stderr only", args, stderr.String(), stdout.String())
		}
	}
	var stderr strings.Builder
	if code := cli.Main([]string{"-h"}, &strings.Builder{}, &stderr); code != 0 || !strings.Contains(stderr.String(), "-workloads names") {
		t.Errorf("Main(-h) = %d with %q; want 0 and the usage", code, stderr.String())
	}
}

// TestCompareEndToEnd runs a small comparison with every output and checks the files.
func TestCompareEndToEnd(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr strings.Builder
	args := []string{"-workloads", "tailheavy,tiny", "-impls", "static,auto,errgroup", "-scale", "0.002", "-repeat", "1",
		"-out", dir, "-json", "-cpuprofile", filepath.Join(dir, "cpu.prof"), "-trace", filepath.Join(dir, "run.trace")}
	if code := cli.Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("Main = %d; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"tailheavy", "errgroup", "timeline of tailheavy", "report: " + filepath.Join(dir, "report.html")} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"report.html", "report.svg", "results.json", "cpu.prof", "run.trace"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v; want a non-empty file", f, err)
		}
	}
	r := readResults(t, dir)
	if len(r.Results) != 2*4 || len(r.Timelines) != 5 || r.Meta.Repeat != 1 || r.Meta.Elapsed <= 0 {
		t.Errorf("results.json: %d results, %d timelines, meta %+v", len(r.Results), len(r.Timelines), r.Meta)
	}
}

func TestNoiseEndToEnd(t *testing.T) {
	var stdout, stderr strings.Builder
	args := []string{"-noise", "-workloads", "uniform", "-impls", "static,stealing", "-workers", "2", "-n", "2000", "-repeat", "1", "-timeline", "none", "-out", t.TempDir()}
	if code := cli.Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("Main = %d; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "under noise") || !strings.Contains(stderr.String(), "burner process") {
		t.Errorf("stdout:\n%s\nstderr:\n%s\nwant the noise summary and the burner's pid", stdout.String(), stderr.String())
	}
}

func TestSimulateEndToEnd(t *testing.T) {
	var stdout, stderr strings.Builder
	dir := t.TempDir()
	args := []string{"-simulate", "-workloads", "tailheavy,mandelbrot", "-workers", "1,2,4,64", "-scale", "0.001", "-repeat", "1", "-json", "-out", dir}
	if code := cli.Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("Main = %d; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	checks := 2     // sequential at 1 worker
	callTrials := 1 // made for the workload's Machine when no repetition was bracketed
	transferTrials := 0
	if runtime.GOMAXPROCS(0) >= 2 {
		checks += 2 * 5
		callTrials = 5 * 2 * 2            // each partitioner's warm-up and repetition, before and after
		transferTrials = callTrials + 5*2 // and one after the restart trial before each
	}
	for _, want := range []string{"calibration: Spin", "auto: makespan", "simulator validation"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// Timing at this size is noise; only the number of checks is asserted.
	row := regexp.MustCompile(`(?m)^ +(tailheavy|mandelbrot) +(inline|static|dynamic|guided|stealing|auto) +[12] `)
	if got := len(row.FindAllString(out, -1)); got != checks {
		t.Errorf("stdout has %d validation rows; want %d:\n%s", got, checks, out)
	}
	// Each 2-worker check, of its one repetition, was predicted with the fork-join calls timed
	// next to it, warm and cold.
	started := regexp.MustCompile(`(?m)^ +(tailheavy|mandelbrot) +(static|dynamic|guided|stealing|auto) +2 +\S+ +\S+ +[-+][0-9.]+% +1 +[0-9.]+(ns|µs|ms) +[0-9.]+(ns|µs|ms) `)
	if got, want := len(started.FindAllString(out, -1)), checks-2; got != want {
		t.Errorf("stdout has %d 2-worker validation rows with helper starts; want %d:\n%s", got, want, out)
	}
	// Each 2-worker repetition was bracketed by call and transfer trials too.
	r := readResults(t, dir)
	if r.Study == nil || len(r.Study.Workloads) != 2 {
		t.Fatalf("results.json: simulation %+v; want two workloads", r.Study)
	}
	for _, w := range r.Study.Workloads {
		if len(w.CallTrialsNs) != callTrials || len(w.TransferTrialsNs) != transferTrials {
			t.Errorf("%s: %d call trials and %d transfer trials; want %d and %d", w.Name, len(w.CallTrialsNs), len(w.TransferTrialsNs), callTrials, transferTrials)
		}
	}
	// ... and each 2-worker check was predicted with the transfers timed next to it.
	for _, ch := range r.Study.Checks {
		if ch.Workers == 2 && !(ch.TransferNs > 0) {
			t.Errorf("%s/%s: transfer %g; want the median of the trials next to its repetitions", ch.Workload, ch.Partitioner, ch.TransferNs)
		}
	}
}

// readResults reads the results.json that a run with -json wrote into dir.
func readResults(t *testing.T, dir string) report.Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}
