package runner_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/load"
	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
)

func pickImpls(t *testing.T, names ...string) []impls.Impl {
	var out []impls.Impl
	for _, n := range names {
		im, ok := impls.ByName(n)
		if !ok {
			t.Fatalf("no impl %q", n)
		}
		out = append(out, im)
	}
	return out
}

func TestCompare(t *testing.T) {
	tail, _ := workloads.ByName("tailheavy")
	tiny, _ := workloads.ByName("tiny")
	cfg := runner.Config{
		Workloads: []workloads.Workload{tail, tiny},
		Impls:     pickImpls(t, "static", "auto", "errgroup", "pond", "goroutines"),
		Workers:   []int{1, 2},
		Scale:     0.005, // tailheavy: 500 items; tiny: 10 calls of 1000 items
		Repeat:    3,
	}
	rs, err := runner.Compare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Per workload: sequential once, 4 implementations with 2 worker counts, and goroutines
	// (which ignores the worker count) once, with the most workers.
	if len(rs) != 2*(1+4*2+1) {
		t.Fatalf("%d results; want %d", len(rs), 2*(1+4*2+1))
	}
	for _, r := range rs {
		if r.Impl == "sequential" && (r.Workers != 1 || r.Speedup != 1) {
			t.Errorf("sequential: %+v; want 1 worker and speedup 1", r)
		}
		if r.Impl == "goroutines" && r.Workers != 2 {
			t.Errorf("goroutines: %+v; want it once, with 2 workers", r)
		}
		if len(r.TimesNs) != 3 || r.MedianNs <= 0 || r.Speedup <= 0 || r.Efficiency != r.Speedup/float64(r.Workers) {
			t.Errorf("%s/%s w=%d: %+v; want 3 times, a positive median and derived columns", r.Workload, r.Impl, r.Workers, r)
		}
		if r.Group == "peer" && r.VsPeer < 1 {
			t.Errorf("%s/%s w=%d: t/peer %g; a peer cannot beat the best peer", r.Workload, r.Impl, r.Workers, r.VsPeer)
		}
		if (r.Impl == "static" || r.Impl == "auto") != r.Measured {
			t.Errorf("%s/%s: Measured = %v; want it for stealkit's partitioners only", r.Workload, r.Impl, r.Measured)
		}
		if r.Workload == "tiny" && r.Calls != 10 {
			t.Errorf("tiny: %d calls; want 10", r.Calls)
		}
		checkCores(t, r)
	}
	best := map[string]bool{}
	for _, r := range rs {
		if r.VsPeer == 1 && r.Group == "peer" {
			best[r.Workload+string(rune('0'+r.Workers))] = true
		}
	}
	if len(best) != 4 {
		t.Errorf("best peers found for %d (workload, workers) pairs; want 4", len(best))
	}
}

// checkCores: a result's Cores is the CPUs the process kept busy, more than 0 and at most the
// machine's, when the process's CPU time can be read and the timed repetitions took at least
// MinCPUWindow; otherwise it is -1.
func checkCores(t *testing.T, r runner.Result) {
	t.Helper()
	wall := 0.0
	for _, ns := range r.TimesNs {
		wall += ns * float64(r.Calls)
	}
	_, ok := load.ProcessCPU()
	if ok && time.Duration(wall) >= runner.MinCPUWindow {
		if r.Cores <= 0 || r.Cores > float64(runtime.NumCPU())+0.5 {
			t.Errorf("%s/%s w=%d: cores %g over %v; want the CPUs the process kept busy, more than 0 and at most %d",
				r.Workload, r.Impl, r.Workers, r.Cores, time.Duration(wall), runtime.NumCPU())
		}
	} else if r.Cores != -1 {
		t.Errorf("%s/%s w=%d: cores %g over %v; want -1: unknown, or timed too briefly to tell", r.Workload, r.Impl, r.Workers, r.Cores, time.Duration(wall))
	}
}

// TestCompareReportsCores: a sequential loop timed for at least MinCPUWindow keeps at most about
// one CPU busy, and its Cores is known. The loop grows until its repetitions take that long.
func TestCompareReportsCores(t *testing.T) {
	_, known := load.ProcessCPU()
	w, _ := workloads.ByName("uniform")
	for n := 1 << 12; ; n *= 4 {
		rs, err := runner.Compare(runner.Config{Workloads: []workloads.Workload{w}, Impls: pickImpls(t, "sequential"), Workers: []int{1}, N: n, Repeat: 3})
		if err != nil {
			t.Fatal(err)
		}
		r := rs[0]
		checkCores(t, r)
		if !known {
			return // checkCores wanted -1
		}
		if r.Cores == -1 {
			if n >= 1<<26 {
				t.Fatalf("n %d: cores -1; want it known once the repetitions take %v", n, runner.MinCPUWindow)
			}
			continue
		}
		// At most about one: the machine may be busy, and then less.
		if r.Cores <= 0 || r.Cores > 1.5 {
			t.Errorf("sequential, n %d: cores %g; want more than 0 and at most about 1", n, r.Cores)
		}
		return
	}
}

// TestCompareCallsItsHooks: BeforeRound runs before each round, the warm-up's included, and
// BeforeRepetition and AfterRepetition on either side of each cell's repetition in the round,
// with the cell's implementation and workers, so that calibration trials made there are next
// to the repetition they go with.
func TestCompareCallsItsHooks(t *testing.T) {
	w, _ := workloads.ByName("uniform")
	var events []string
	cfg := runner.Config{
		Workloads: []workloads.Workload{w}, Impls: pickImpls(t, "static", "dynamic"), Workers: []int{2}, N: 100, Repeat: 2,
		BeforeRound:      func() { events = append(events, "round") },
		BeforeRepetition: func(impl string, k int) { events = append(events, fmt.Sprintf("%s/%d", impl, k)) },
		AfterRepetition:  func(impl string, k int) { events = append(events, fmt.Sprintf("after %s/%d", impl, k)) },
	}
	if _, err := runner.Compare(cfg); err != nil {
		t.Fatal(err)
	}
	var want []string
	for range 1 + cfg.Repeat {
		want = append(want, "round", "sequential/1", "after sequential/1", "static/2", "after static/2", "dynamic/2", "after dynamic/2")
	}
	if !slices.Equal(events, want) {
		t.Errorf("hooks called as %v; want %v", events, want)
	}
}

func TestCompareSkipsGoroutinesForLargeN(t *testing.T) {
	w, _ := workloads.ByName("saxpy")
	rs, err := runner.Compare(runner.Config{Workloads: []workloads.Workload{w}, Impls: pickImpls(t, "goroutines"), Workers: []int{2}, N: impls.GoroutinesMaxN + 1, Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[1].Skipped == "" || rs[1].MedianNs != 0 || rs[1].Cores != -1 {
		t.Errorf("results %+v; want goroutines skipped, with cores -1 (unknown)", rs)
	}
}

// dropLast is a broken implementation: it forgets the last item.
var dropLast = impls.Impl{Name: "droplast", Group: impls.Baseline, Start: func(int) (func(workload.Instance), func()) {
	return func(inst workload.Instance) { inst.Chunk(0, inst.Len()-1) }, func() {}
}}

func TestCompareCatchesAWrongChecksum(t *testing.T) {
	w, _ := workloads.ByName("uniform")
	_, err := runner.Compare(runner.Config{Workloads: []workloads.Workload{w}, Impls: []impls.Impl{dropLast}, Workers: []int{2}, N: 100, Repeat: 1})
	if err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("Compare with an implementation that skips an item: error %v; want a checksum mismatch", err)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		xs := slices.Clone(tc.xs)
		if got := runner.Median(xs); got != tc.want || !slices.Equal(xs, tc.xs) {
			t.Errorf("Median(%v) = %g; want %g, input unchanged", tc.xs, got, tc.want)
		}
	}
}

// sequentialRun builds the named workload with n items and runs it once sequentially; it
// returns the instance (in the state the run left) and the checksum that run gave.
func sequentialRun(name string, n int) (workloads.Workload, workload.Instance, uint64) {
	w, _ := workloads.ByName(name)
	inst := w.New(n)
	inst.Chunk(0, n)
	return w, inst, inst.Checksum()
}

// TestTimelineCoversTheRange: the chunks of a timeline cover [0, n) exactly once, each
// worker's chunks follow one another in time, and only stealing partitioners steal.
func TestTimelineCoversTheRange(t *testing.T) {
	const n = 3_000
	w, inst, want := sequentialRun("tailheavy", n)
	for _, p := range impls.Partitioners() {
		for _, k := range []int{1, 2, 3} {
			tl, err := runner.RecordTimeline(w.Name, inst, want, p.New(nil), k)
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]int, n)
			last := make([]int64, k)
			stolen := 0
			for _, c := range tl.Chunks {
				for i := c.Lo; i < c.Hi; i++ {
					seen[i]++
				}
				if c.StartNs < last[c.Worker] || c.EndNs < c.StartNs || c.EndNs > tl.MakespanNs {
					t.Errorf("%s, %d workers: chunk %+v out of order on its lane", p.Name, k, c)
				}
				last[c.Worker] = c.EndNs
				if c.Stolen {
					stolen++
				}
			}
			if i := slices.IndexFunc(seen, func(s int) bool { return s != 1 }); i >= 0 {
				t.Errorf("%s, %d workers: item %d in %d chunks; want 1", p.Name, k, i, seen[i])
			}
			if stolen > 0 && (p.Name == "static" || p.Name == "dynamic" || p.Name == "guided") {
				t.Errorf("%s: %d chunks marked stolen", p.Name, stolen)
			}
			if tl.Workload != "tailheavy" || tl.Workers != k || tl.N != n || tl.Imbalance < 1 {
				t.Errorf("%s, %d workers: timeline header %+v", p.Name, k, tl)
			}
		}
	}
}

// TestTimelineWorkersWaitForGiveBack: a timeline's workers follow pfor's protocol for a
// splitting run. A worker that finds no work while Idle says another holds a range polls
// again instead of leaving, the holder runs its range in pieces and gives the rest back
// when Hungry, and the waiting worker runs what was given back.
func TestTimelineWorkersWaitForGiveBack(t *testing.T) {
	const n = 1_000
	w, inst, want := sequentialRun("uniform", n)
	tl, err := runner.RecordTimeline(w.Name, inst, want, handOver{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var lanes [2][][2]int
	for _, c := range tl.Chunks {
		lanes[c.Worker] = append(lanes[c.Worker], [2]int{c.Lo, c.Hi})
		if c.Stolen != (c.Worker == 0) {
			t.Errorf("chunk %+v: Stolen = %v; want it only for what worker 0 got given back", c, c.Stolen)
		}
	}
	if want := [][2]int{{0, 1}}; !slices.Equal(lanes[1], want) {
		t.Errorf("worker 1 ran %v; want %v: its first piece, then it gave the rest back", lanes[1], want)
	}
	if want := [][2]int{{1, n}}; !slices.Equal(lanes[0], want) {
		t.Errorf("worker 0 ran %v; want %v, the range worker 1 gave back", lanes[0], want)
	}
}

// handOver is a partitioner for two workers whose run gives worker 1 the whole range, in
// pieces of one item, and worker 0 nothing but what worker 1 gives back. Worker 1's Hungry
// waits (up to 5 s) until worker 0 has called Idle, so that the hand-over does not depend on
// timing: a worker 0 that leaves instead of calling Idle leaves the range to worker 1.
type handOver struct{}

func (handOver) Name() string { return "handover" }

func (handOver) Start(lo, hi, workers int) partition.Run {
	return &handOverRun{lo: lo, hi: hi, idle: make(chan struct{})}
}

type handOverRun struct {
	lo, hi   int
	mu       sync.Mutex
	handed   bool // worker 1 has had its range
	back     [2]int
	hasBack  bool // a give-back is waiting for worker 0
	gotBack  bool // worker 0 has had it
	done1    bool // worker 1 has no more work
	idleOnce sync.Once
	idle     chan struct{} // closed when worker 0 first calls Idle
}

func (r *handOverRun) Next(w int) (int, int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w == 1 {
		if !r.handed && r.lo < r.hi {
			r.handed = true
			return r.lo, r.hi, true
		}
		r.done1 = true
		return 0, 0, false
	}
	if r.hasBack {
		r.hasBack, r.gotBack = false, true
		return r.back[0], r.back[1], true
	}
	return 0, 0, false
}

func (r *handOverRun) Idle(w int) bool {
	if w == 0 {
		r.idleOnce.Do(func() { close(r.idle) })
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// A give-back waiting counts even when worker 1 has finished since: it may have
	// given back and left between worker 0's Next and this call.
	return w == 0 && (r.hasBack || !r.gotBack && !r.done1)
}

func (r *handOverRun) Quiet(int) (*atomic.Uint64, uint64) { return nil, 0 }

func (r *handOverRun) Hungry(w, _ int) bool {
	if w == 0 {
		return false // nobody waits for worker 0
	}
	select {
	case <-r.idle:
		return true
	case <-time.After(5 * time.Second):
		return false
	}
}

func (r *handOverRun) GiveBack(w, from int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.back, r.hasBack = [2]int{from, r.hi}, true
}

func (r *handOverRun) Piece(int) int               { return 1 }
func (r *handOverRun) Counts(int) partproto.Counts { return partproto.Counts{} }
func (r *handOverRun) Stolen(w int) bool           { return w == 0 }

// TestCompareMeasuresTheGivenInstance: with Config.Instance, every run is made on the instance
// it returns, which AfterRepetition may then use without spoiling the checksum (the simulator
// calibrates on it between repetitions).
func TestCompareMeasuresTheGivenInstance(t *testing.T) {
	w, _ := workloads.ByName("uniform")
	inst := w.New(100)
	var asked []int
	cfg := runner.Config{
		Workloads: []workloads.Workload{w}, Impls: pickImpls(t, "static"), Workers: []int{2}, N: 100, Repeat: 2,
		Instance: func(got workloads.Workload, n int) workload.Instance {
			asked = append(asked, n)
			if got.Name != w.Name {
				t.Errorf("Instance asked for %s; want %s", got.Name, w.Name)
			}
			return inst
		},
		// The instance is reset and run again after each repetition, as a calibration trial does.
		AfterRepetition: func(string, int) { inst.Reset(); inst.Chunk(0, 50) },
	}
	rs, err := runner.Compare(cfg)
	if err != nil {
		t.Fatalf("Compare with a given instance: %v", err)
	}
	if !slices.Equal(asked, []int{100}) || len(rs) != 2 || len(rs[1].TimesNs) != 2 {
		t.Errorf("Instance asked %v, results %+v; want one instance of 100 items, measured twice", asked, rs)
	}
	// The runs were made on inst: a run after the last repetition's hook leaves its checksum.
	inst.Reset()
	inst.Chunk(0, 50)
	half := inst.Checksum()
	inst.Reset()
	inst.Chunk(0, 100)
	if full := inst.Checksum(); full == half {
		t.Fatalf("uniform's checksum does not tell a half run from a whole one")
	}
}
