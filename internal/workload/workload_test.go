package workload_test

import (
	"strings"
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
)

// testSizes are the sizes the tests build, small enough for go test -race to stay fast.
var testSizes = map[string]int{
	"saxpy":      10_007,
	"uniform":    3_000,
	"triangular": 2_000,
	"tailheavy":  1_000,
	"randomskew": 5_000,
	"mandelbrot": 120,
	"tiny":       1_000,
	"spmv":       3_000,
	"matmul":     37,
	"query":      20,
}

// every returns the workloads of All and More.
func every() []workload.Workload { return append(workload.All(), workload.More()...) }

func TestAllMatchesWorkloadsMD(t *testing.T) {
	want := []listed{
		{"saxpy", 16_777_216, 1},
		{"uniform", 1_000_000, 1},
		{"triangular", 20_000, 1},
		{"tailheavy", 100_000, 1},
		{"randomskew", 100_000, 1},
		{"mandelbrot", 2_000, 1},
		{"tiny", 1_000, 2_000},
	}
	all := workload.All()
	checkList(t, "All()", all, want)
	all[0].Name = "changed"
	if got := workload.All()[0].Name; got != "saxpy" {
		t.Errorf("All()[0].Name = %q after a caller modified an earlier result; want saxpy", got)
	}
}

func TestByName(t *testing.T) {
	for _, w := range every() {
		got, ok := workload.ByName(w.Name)
		if !ok || got.Name != w.Name || got.N != w.N || got.Calls != w.Calls {
			t.Errorf("ByName(%q) = %+v, %v; want %+v, true", w.Name, got, ok, w)
		}
	}
	for _, name := range []string{"", "Uniform", "nope"} {
		if got, ok := workload.ByName(name); ok {
			t.Errorf("ByName(%q) = %+v, true; want false", name, got)
		}
	}
}

func TestNewDefaultSize(t *testing.T) {
	for _, w := range workload.All() {
		if w.Name == "saxpy" {
			continue // 256 MiB: too much for a unit test; N itself is checked above
		}
		for _, n := range []int{0, -1} {
			if got := w.New(n).Len(); got != w.N {
				t.Errorf("%s: New(%d).Len() = %d; want N = %d", w.Name, n, got, w.N)
			}
		}
	}
}

func TestNewOnZeroWorkloadPanics(t *testing.T) {
	got := panicMessage(func() { workload.Workload{}.New(10) })
	if !strings.HasPrefix(got, "workload: New(10)") {
		t.Errorf("Workload{}.New(10) panicked with %q; want a message starting \"workload: New(10)\"", got)
	}
}

func TestOutOfRangePanics(t *testing.T) {
	for _, w := range every() {
		inst := w.New(10)
		for _, tc := range []struct {
			call string
			f    func()
		}{
			{"Chunk(-1, 5)", func() { inst.Chunk(-1, 5) }},
			{"Chunk(5, 4)", func() { inst.Chunk(5, 4) }},
			{"Chunk(0, 11)", func() { inst.Chunk(0, 11) }},
			{"Item(-1)", func() { inst.Item(-1) }},
			{"Item(10)", func() { inst.Item(10) }},
			{"Cost(10)", func() { inst.Cost(10) }},
		} {
			got := panicMessage(tc.f)
			prefix := "workload: " + tc.call
			if !strings.HasPrefix(got, prefix) {
				t.Errorf("%s: %s panicked with %q; want a message starting %q", w.Name, tc.call, got, prefix)
			}
		}
		for _, lo := range []int{0, 5, 10} { // empty ranges, including at the end, do nothing
			want := inst.Checksum()
			inst.Chunk(lo, lo)
			if got := inst.Checksum(); got != want {
				t.Errorf("%s: Chunk(%d, %d) changed the checksum from %#x to %#x", w.Name, lo, lo, want, got)
			}
		}
	}
}

func TestChunkAndItemDoNotAllocate(t *testing.T) {
	for _, w := range every() {
		inst := w.New(50)
		allocs := testing.AllocsPerRun(10, func() {
			inst.Chunk(0, 25)
			inst.Item(30)
		})
		if allocs != 0 {
			t.Errorf("%s: Chunk and Item allocated %v times per run; want 0", w.Name, allocs)
		}
	}
}

// panicMessage calls f and returns the value it panicked with, as a string, or "" if it did
// not panic.
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "non-string panic value"
			}
		}
	}()
	f()
	return ""
}

// listed is a workload's name, size and calls as a test expects them.
type listed struct {
	name     string
	n, calls int
}

// checkList fails t unless the workloads got are want, in order; label names the list.
func checkList(t *testing.T, label string, got []workload.Workload, want []listed) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("len(%s) = %d; want %d", label, len(got), len(want))
	}
	for i, w := range got {
		if w.Name != want[i].name || w.N != want[i].n || w.Calls != want[i].calls {
			t.Errorf("%s[%d] = {%q, N %d, Calls %d}; want {%q, N %d, Calls %d}",
				label, i, w.Name, w.N, w.Calls, want[i].name, want[i].n, want[i].calls)
		}
	}
}
