package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/report"
	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// sample is a small report with every section: results (one skipped), a timeline with own
// and stolen chunks, a study with a failed check, and noise.
func sample() *report.Report {
	rs := []runner.Result{
		{Workload: "tailheavy", Impl: "sequential", Group: "baseline", Workers: 1, N: 1000, Calls: 1, MedianNs: 2e6, Speedup: 1, Efficiency: 1},
		{Workload: "tailheavy", Impl: "goroutines", Group: "baseline", Workers: 2, N: 1000, Calls: 1, Skipped: "n = 1000 > 10"},
		{Workload: "tailheavy", Impl: "static", Group: "stealkit", Workers: 2, N: 1000, Calls: 1, MedianNs: 1.9e6, Speedup: 2e6 / 1.9e6, Efficiency: 1e6 / 1.9e6, VsPeer: 1.9, Measured: true, Imbalance: 1.95, Cores: 1.0},
		{Workload: "tailheavy", Impl: "stealing", Group: "stealkit", Workers: 2, N: 1000, Calls: 1, MedianNs: 1.01e6, Speedup: 2e6 / 1.01e6, Efficiency: 1e6 / 1.01e6, VsPeer: 1.01, Measured: true, Steals: 7, Imbalance: 1.01},
		{Workload: "tailheavy", Impl: "pond", Group: "peer", Workers: 2, N: 1000, Calls: 1, MedianNs: 1e6, Speedup: 2, Efficiency: 1, VsPeer: 1, Cores: 2},
		{Workload: "tiny", Impl: "sequential", Group: "baseline", Workers: 1, N: 1000, Calls: 2000, MedianNs: 40e3, Speedup: 1, Efficiency: 1},
		{Workload: "tiny", Impl: "static", Group: "stealkit", Workers: 2, N: 1000, Calls: 2000, MedianNs: 30e3, Speedup: 4.0 / 3, Efficiency: 2.0 / 3, Measured: true, Steals: 0.5, Imbalance: 1.2, Cores: -1},
	}
	tl := runner.Timeline{Workload: "tailheavy", Partitioner: "stealing", Workers: 2, N: 1000, MakespanNs: 1e6, Steals: 1, Imbalance: 1.01,
		Chunks: []runner.Chunk{
			{Worker: 0, Lo: 0, Hi: 500, StartNs: 0, EndNs: 100e3},
			{Worker: 0, Lo: 900, Hi: 1000, StartNs: 100e3, EndNs: 1e6, Stolen: true},
			{Worker: 1, Lo: 500, Hi: 600, StartNs: 0, EndNs: 100},
			{Worker: 1, Lo: 600, Hi: 700, StartNs: 100, EndNs: 200}, // merged with the one before: under a pixel
			{Worker: 1, Lo: 700, Hi: 900, StartNs: 200, EndNs: 990e3},
		}}
	s := &simulate.Study{Machine: simulate.Machine{SpinNs: 2.5, TakeNs: map[string][]float64{"static": {1, 2}, "stealing": {20, 30}}}, Workers: []int{1, 2, 4}, Tolerance: 0.15}
	w := simulate.Workload{Name: "tailheavy", N: 1000, Calls: 1, UnitNs: []float64{2.6, 2.7}, SpinRatio: 1.04}
	for _, k := range s.Workers {
		for _, p := range []string{"static", "dynamic", "guided", "stealing", "auto"} {
			w.Predictions = append(w.Predictions, simulate.Result{Partitioner: p, Workers: k, MakespanNs: 2e6 / float64(k), Efficiency: 0.9, Imbalance: 1.1, Steals: int64(k)})
		}
	}
	s.Workloads = []simulate.Workload{w}
	s.Checks = []simulate.Check{
		{Workload: "tailheavy", Partitioner: "inline", Workers: 1, PredictedNs: 2e6, MeasuredNs: 2.1e6, Error: 2/2.1 - 1, RepetitionErrors: []float64{-0.1, 2/2.1 - 1, 0.1}},
		{Workload: "tailheavy", Partitioner: "static", Workers: 2, PredictedNs: 1e6, MeasuredNs: 1.9e6, Error: 1/1.9 - 1, ForkNs: 2100, ColdForkNs: 312e3, Attempts: []float64{-0.6, 1/1.9 - 1, -0.3},
			RepetitionErrors: []float64{-0.5, -0.4, 1/1.9 - 1, -0.5, -0.6, -0.4, -0.3, -0.5, -0.4, -0.5}, Pooled: 2},
	}
	return &report.Report{
		Meta:      report.Meta{Date: "2026-01-01T00:00:00Z", Command: "stealbench -x <y>", CPU: "test & CPU", GOMAXPROCS: 2, Scale: 0.25, Repeat: 5, Noise: true, NoiseCores: 0.98, Versions: []report.Version{{Path: "github.com/stealkit/stealkit", Version: "(devel)", Replace: "../"}}},
		Results:   rs,
		Timelines: []runner.Timeline{tl},
		Study:     s,
	}
}

// fragmentsFile holds the report's golden fragments, beside the other inputs the project's
// tests share.
const fragmentsFile = "../../../testdata/report/fragments.txt"

// goldenFragments returns the lines of section name ("== name") of fragmentsFile.
func goldenFragments(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(fragmentsFile)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	in := false
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "== "):
			in = strings.TrimPrefix(l, "== ") == name
		case in && strings.TrimSpace(l) != "":
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("%s has no section %q", fragmentsFile, name)
	}
	return lines
}

// hasRow reports whether out has a line whose fields are want's.
func hasRow(out, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.Join(strings.Fields(l), " ") == strings.Join(strings.Fields(want), " ") {
			return true
		}
	}
	return false
}

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	if err := report.WriteTable(&b, sample().Results); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1+7+1 || lines[6] != "" { // header, rows, a blank line between the two workloads
		t.Fatalf("WriteTable wrote %d lines; want 9, the 7th blank:\n%s", len(lines), out)
	}
	for _, want := range goldenFragments(t, "table") {
		if !hasRow(out, want) {
			t.Errorf("WriteTable output lacks the row %q:\n%s", want, out)
		}
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line %q ends in a space", l)
		}
	}
}

// TestWriteHTML: the page is well-formed XML, has an SVG chart per section, marks stolen
// chunks, escapes text and loads nothing from the network.
func TestWriteHTML(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteHTML(&b, sample()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	dec := xml.NewDecoder(strings.NewReader(strings.TrimPrefix(page, "<!DOCTYPE html>\n")))
	dec.Entity = xml.HTMLEntity
	elements := map[string]int{}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("report is not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			elements[se.Name.Local]++
		}
	}
	// 1 speedup chart per (workload, workers), 1 timeline, 2 charts per simulated workload.
	if got := elements["svg"]; got != 2+1+2 {
		t.Errorf("%d <svg> elements; want 5", got)
	}
	for _, want := range []string{"#ee7733", "Under noise", "simulator validation FAIL", "stealbench -x &lt;y&gt;", "test &amp; CPU", "skipped: n = 1000 &gt; 10"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, bad := range []string{"http://", "https://", "<script", "<link"} {
		if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/`, ""), bad) {
			t.Errorf("report contains %q: it must be self-contained", bad)
		}
	}
	// Chunks 2 and 3 of worker 1 are under a pixel each and adjacent: drawn as one bar.
	if got := strings.Count(page, "<title>worker 1: items"); got != 2 {
		t.Errorf("worker 1 has %d bars; want 2 (two thin chunks merged)", got)
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteJSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var back report.Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Results) != 7 || len(back.Timelines[0].Chunks) != 5 || back.Study.Checks[1].Partitioner != "static" || back.Meta.Versions[0].Replace != "../" {
		t.Errorf("JSON round trip lost data: %+v", back)
	}
}

func TestWriteStudyAndNoise(t *testing.T) {
	var b strings.Builder
	r := sample()
	if err := report.WriteStudy(&b, r.Study); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteNoise(&b, r.Results, 0.98); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"static: makespan", "auto: makespan", "each repetition predicted with the units of the calibration trials made just before and after it", "simulator validation FAIL: 1 of 2", "burning 0.98 cores"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, want := range goldenFragments(t, "study") {
		if !hasRow(out, want) {
			t.Errorf("output lacks the row %q:\n%s", want, out)
		}
	}
}

func TestCollectMeta(t *testing.T) {
	m := report.CollectMeta([]string{"stealbench", "-n", "5"}, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if m.Date != "2026-01-02T03:04:05Z" || m.Command != "stealbench -n 5" || m.GoVersion == "" || m.CPU == "" || m.GOMAXPROCS < 1 {
		t.Errorf("CollectMeta = %+v", m)
	}
	// Test binaries carry no module versions, so m.Versions is checked by ci-smoke.sh on
	// the real command's output.
}

func TestOtherLoad(t *testing.T) {
	done := report.OtherLoad()
	time.Sleep(50 * time.Millisecond)
	l, h := done()
	if l != -1 && (l < 0 || l > float64(runtime.NumCPU())+0.5) {
		t.Errorf("OtherLoad() = %g; want -1 or within [0, NumCPU]", l)
	}
	if (h == -1) != (l == -1) || h > l {
		t.Errorf("OtherLoad() = %g, host %g; want the host's part within the whole, both known or not", l, h)
	}
}

// TestNoiseRowsTakeTheMostWorkers: with several worker counts, the noise summary compares
// static and stealing at the largest one, not whichever came last.
func TestNoiseRowsTakeTheMostWorkers(t *testing.T) {
	rs := []runner.Result{
		{Workload: "uniform", Impl: "sequential", Workers: 1, MedianNs: 100},
		{Workload: "uniform", Impl: "static", Workers: 3, MedianNs: 40, Speedup: 2.5},
		{Workload: "uniform", Impl: "static", Workers: 2, MedianNs: 60, Speedup: 100.0 / 60},
		{Workload: "uniform", Impl: "stealing", Workers: 3, MedianNs: 35, Speedup: 100.0 / 35},
		{Workload: "uniform", Impl: "stealing", Workers: 2, MedianNs: 52, Speedup: 100.0 / 52},
		{Workload: "uniform", Impl: "auto", Workers: 2, MedianNs: 50},
	}
	rows := report.NoiseRows(rs)
	want := report.NoiseRow{Workload: "uniform", Seq: 100, Static: 40, Stealing: 35, StaticSpeedup: 2.5, StealingSpeedup: 100.0 / 35}
	if len(rows) != 1 || rows[0] != want {
		t.Errorf("NoiseRows = %+v; want [%+v] (3 workers; auto not run with 3)", rows, want)
	}
}

// TestWriteSVG: the image is well-formed XML with a chart per (workload, workers) inside it,
// names the machine, and is refused when there is nothing to chart.
func TestWriteSVG(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteSVG(&b, sample()); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&b)
	svgs := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("WriteSVG's image is not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "svg" {
			svgs++
		}
	}
	if svgs != 1+2 {
		t.Errorf("%d <svg> elements; want the image and 2 speedup charts", svgs)
	}
	if err := report.WriteSVG(io.Discard, &report.Report{}); err == nil {
		t.Error("WriteSVG of a report without results: no error")
	}
}

// TestNoiseAutoOverBest: the noise summary compares auto with the fastest of static, dynamic,
// guided and stealing, whichever that is, and prints auto's speedup.
func TestNoiseAutoOverBest(t *testing.T) {
	rs := []runner.Result{
		{Workload: "tailheavy", Impl: "sequential", Workers: 1, MedianNs: 150},
		{Workload: "tailheavy", Impl: "static", Workers: 2, MedianNs: 140},
		{Workload: "tailheavy", Impl: "dynamic", Workers: 2, MedianNs: 110},
		{Workload: "tailheavy", Impl: "guided", Workers: 2, MedianNs: 100},
		{Workload: "tailheavy", Impl: "stealing", Workers: 2, MedianNs: 105},
		{Workload: "tailheavy", Impl: "auto", Workers: 2, MedianNs: 120, Speedup: 1.25},
	}
	rows := report.NoiseRows(rs)
	if len(rows) != 1 || rows[0].AutoOverBest() != 1.2 {
		t.Fatalf("NoiseRows = %+v; want one row with auto/best other 1.2 (guided's 100)", rows)
	}
	var b strings.Builder
	if err := report.WriteNoise(&b, rs, 1); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "auto/best other") || !strings.Contains(out, "1.25") || !strings.Contains(out, "1.20") {
		t.Errorf("WriteNoise lacks auto's speedup 1.25 or auto/best other 1.20:\n%s", out)
	}
	if got := (report.NoiseRow{Static: 100}).AutoOverBest(); got != 0 {
		t.Errorf("AutoOverBest without auto = %v; want 0", got)
	}
}
