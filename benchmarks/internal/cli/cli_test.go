package cli_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/cli"
	"github.com/stealkit/stealkit/benchmarks/internal/noise"
	"github.com/stealkit/stealkit/benchmarks/internal/report"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
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
		{"-replay", "results.json"},        // without -simulate
		{"-simulate", "-neighbour", "3ms"}, // without -replay
		{"-simulate", "-replay", "results.json", "-neighbour", "-1ms"},
		{"-simulate", "-replay", "x/results.json", "-json", "-out", "x"},
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
	// Each 2-worker repetition was bracketed by call, piece and transfer trials too.
	r := readResults(t, dir)
	if r.Study == nil || len(r.Study.Workloads) != 2 {
		t.Fatalf("results.json: simulation %+v; want two workloads", r.Study)
	}
	for _, w := range r.Study.Workloads {
		if len(w.CallTrialsNs) != callTrials || len(w.PieceTrialsNs) != callTrials || len(w.TransferTrialsNs) != transferTrials {
			t.Errorf("%s: %d call trials, %d piece trials and %d transfer trials; want %d, %d and %d", w.Name, len(w.CallTrialsNs), len(w.PieceTrialsNs), len(w.TransferTrialsNs), callTrials, callTrials, transferTrials)
		}
		if w.Machine.PieceNs == nil {
			t.Errorf("%s: no piece figure in the workload's machine", w.Name)
		}
	}
	// ... and each 2-worker check was predicted with the transfers timed next to it.
	for _, ch := range r.Study.Checks {
		if ch.Workers == 2 && !(ch.TransferNs > 0) {
			t.Errorf("%s/%s: transfer %g; want the median of the trials next to its repetitions", ch.Workload, ch.Partitioner, ch.TransferNs)
		}
	}
}

// TestSimulateReplay: -replay predicts again from the recorded calibration, at the workers
// asked for, for the workloads asked for, ignoring the recorded predictions, and measures
// nothing.
func TestSimulateReplay(t *testing.T) {
	m := simulate.Machine{SpinNs: 1.5, StealNs: 40, FailNs: 2, TransferNs: 45, StartNs: 250, ForkNs: 420, JoinNs: 240, CallNs: 15, Procs: 2,
		TakeNs: map[string][]float64{"static": {14, 15}, "dynamic": {4, 6}, "guided": {7, 8}, "stealing": {16, 30}, "auto": {50, 80}}}
	piece := 3.0 // not the call's: the replay charges what was recorded
	m.PieceNs = &piece
	rec := func(name string, n int, unit []float64, restart float64) simulate.Workload {
		return simulate.Workload{Name: name, N: n, Calls: 3, UnitNs: unit, RestartNs: restart, Machine: m,
			Predictions: []simulate.Result{{Partitioner: "auto", Workers: 2, Efficiency: 0.123}}} // not what the costs give
	}
	old := report.Report{Meta: report.Meta{Date: "recorded"}, Study: &simulate.Study{Machine: m, Workers: []int{1, 2}, Tolerance: 0.15,
		Workloads: []simulate.Workload{rec("tailheavy", 500, []float64{1.5, 1.7}, 0), rec("tiny", 300, []float64{0.7, 0.75}, 30)}}}
	dir := t.TempDir()
	file := filepath.Join(dir, "old.json")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(report.WriteJSON(f, &old), f.Close()); err != nil {
		t.Fatal(err)
	}

	var stdout, stderr strings.Builder
	args := []string{"-simulate", "-replay", file, "-workloads", "tiny,spmv", "-workers", "1,2,8", "-json", "-out", dir}
	if code := cli.Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("Main(%q) = %d; stderr:\n%s", args, code, stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "replayed from the calibration of "+file+" (recorded)") || !strings.Contains(out, "validation: none") {
		t.Errorf("stdout lacks the replay's title and validation line:\n%s", out)
	}
	r := readResults(t, dir)
	if r.Study == nil || len(r.Study.Workloads) != 1 || len(r.Study.Checks) != 0 || r.Study.ReplayedFrom != file {
		t.Fatalf("results.json: simulation %+v; want tiny alone, replayed from %s, no checks", r.Study, file)
	}
	w, _ := workloads.ByName("tiny")
	want := simulate.Predict("tiny", simulate.PrefixCosts(w.New(300)), 3, []float64{0.7, 0.75}, 30, m, []int{1, 2, 8})
	if got := r.Study.Workloads[0].Predictions; !slices.Equal(got, want.Predictions) {
		t.Errorf("replayed predictions:\n%+v\nwant, from the recorded calibration:\n%+v", got, want.Predictions)
	}

	// Beside a neighbour: the same calibration, every prediction made beside it, and the
	// speedups with their ideal.
	stdout.Reset()
	args = []string{"-simulate", "-replay", file, "-workloads", "tailheavy", "-workers", "2", "-neighbour", "3ms", "-json", "-out", dir}
	if code := cli.Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("Main(%q) = %d; stderr:\n%s", args, code, stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "time-sliced in 3ms slices") || !strings.Contains(out, "auto/best other") || !strings.Contains(out, "1.333x") {
		t.Errorf("stdout lacks the neighbour's line or the speedups:\n%s", out)
	}
	r = readResults(t, dir)
	w, _ = workloads.ByName("tailheavy")
	want = simulate.PredictBeside("tailheavy", simulate.PrefixCosts(w.New(500)), 3, []float64{1.5, 1.7}, 0, m, []int{2}, simulate.Neighbour{SliceNs: 3e6, Cores: 2})
	if r.Study == nil || len(r.Study.Workloads) != 1 || !reflect.DeepEqual(r.Study.Workloads[0].Predictions, want.Predictions) || r.Study.Workloads[0].Neighbour == nil {
		t.Errorf("results.json beside a neighbour: %+v\nwant the predictions\n%+v", r.Study, want.Predictions)
	}

	for _, tc := range []struct {
		name, content, want string
	}{
		{"missing.json", "", "no such file"},
		{"compare.json", `{"meta": {}, "results": []}`, "no simulation recorded"},
		{"garbled.json", `{"simulation": [`, "unexpected end"},
	} {
		name := filepath.Join(dir, tc.name)
		if tc.content != "" {
			if err := os.WriteFile(name, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var stdout, stderr strings.Builder
		if code := cli.Main([]string{"-simulate", "-replay", name, "-out", dir}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("-replay %s: exit %d, stderr %q; want 1 and %q", tc.name, code, stderr.String(), tc.want)
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
