package simulate

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
)

// TestForkJoinBatches: each batch of timed calls adds one median per figure, all positive,
// and a batch spoiled by a slow stretch of the machine does not move the result.
func TestForkJoinBatches(t *testing.T) {
	var fj forkJoinTimes
	for range 3 {
		fj.batch()
	}
	if len(fj.starts) != 3 || len(fj.forks) != 3 || len(fj.joins) != 3 {
		t.Fatalf("3 batches gave %d, %d, %d medians; want 3 each", len(fj.starts), len(fj.forks), len(fj.joins))
	}
	for i := range 3 {
		if !(fj.starts[i] > 0 && fj.forks[i] > 0 && fj.joins[i] > 0) {
			t.Errorf("batch %d: start %g, fork %g, join %g; want all positive", i, fj.starts[i], fj.forks[i], fj.joins[i])
		}
	}
	spoiled := forkJoinTimes{
		starts: []float64{1000, 7700, 1100, 990, 1050},
		forks:  []float64{1900, 64_100, 2000, 1800, 1950},
		joins:  []float64{800, 590, 850, 900, 870},
	}
	if s, f, j := spoiled.medians(); s != 1050 || f != 1950 || j != 850 {
		t.Errorf("medians with one spoiled batch = %g, %g, %g; want 1050, 1950, 850", s, f, j)
	}
}

// TestRestartFrom: a restart counts when the trials agree that a chunk costs more than its
// take: saxpy's figures all exceed it; a workload whose chunk times are noise of either sign
// (mandelbrot's rows) gets 0, and so does one with no trials.
func TestRestartFrom(t *testing.T) {
	const take = 30
	for _, tc := range []struct {
		name    string
		figures []float64
		want    float64
	}{
		{"streaming", []float64{230, 180, 260, 210, 190, 240}, 210 - take},
		{"one trial of six at the take", []float64{230, 180, 260, 30, 190, 240}, 190 - take},
		{"noise", []float64{-900, 1500, 40, -200, 700, 20}, 0},
		{"two of six at or under the take", []float64{230, 180, 260, 30, 10, 240}, 0},
		{"none", nil, 0},
	} {
		if got := excessOver(tc.figures, take); got != tc.want {
			t.Errorf("%s: excessOver(%v, %d) = %g; want %g", tc.name, tc.figures, take, got, tc.want)
		}
	}
}

// TestCalibratorForkJoin: a workload's fork-join figures come from the batches made during
// its rounds, none before the first, and none with a single core.
func TestCalibratorForkJoin(t *testing.T) {
	w, _ := workloads.ByName("uniform")
	inst := w.New(100)
	cal := NewCalibrator(inst, PrefixCosts(inst), 1, 2)
	if _, _, _, ok := cal.ForkJoin(); ok {
		t.Errorf("ForkJoin before any batch reports a figure")
	}
	cal.ForkJoinBatch("static")
	cal.ForkJoinBatch("static")
	if start, fork, join, ok := cal.ForkJoin(); !ok || !(start > 0 && fork > 0 && join > 0) {
		t.Errorf("ForkJoin after 2 batches = %g, %g, %g, %v; want positive figures", start, fork, join, ok)
	}
	// Cold calls are flagged, timed, and do not count in the medians.
	cold := cal.ColdCalls("static")
	if len(cold) != coldCalls {
		t.Fatalf("ColdCalls made %d calls; want %d", len(cold), coldCalls)
	}
	for _, c := range cold {
		if !c.Cold || !(c.StartNs > 0 && c.ForkNs > 0 && c.JoinNs > 0) {
			t.Errorf("cold call %+v; want flagged cold, with positive times", c)
		}
	}
	if len(cal.fj.forks) != 2 {
		t.Errorf("%d batch medians after 2 batches and the cold calls; want 2", len(cal.fj.forks))
	}
	// A stealing partitioner's calls are timed with its own runs, and are not the workload's.
	for _, p := range []string{"stealing", "auto"} {
		calls := append(cal.ColdCalls(p), cal.ForkJoinBatch(p)...)
		if len(calls) != coldCalls+forkJoinBatch {
			t.Errorf("%s: %d calls; want %d", p, len(calls), coldCalls+forkJoinBatch)
		}
		for _, c := range calls {
			if !(c.StartNs > 0 && c.ForkNs > 0 && c.JoinNs > 0) {
				t.Errorf("%s: call %+v; want positive times", p, c)
				break
			}
		}
	}
	if len(cal.fj.forks) != 2 {
		t.Errorf("%d batch medians after the stealing partitioners' calls; want still 2", len(cal.fj.forks))
	}
	one := NewCalibrator(inst, PrefixCosts(inst), 1, 1)
	one.ForkJoinBatch("static")
	if _, _, _, ok := one.ForkJoin(); ok {
		t.Errorf("ForkJoin with 1 proc reports a figure: pfor runs 1 worker inline")
	}
	if c := one.ColdCalls("static"); c != nil {
		t.Errorf("ColdCalls with 1 proc = %v; want none", c)
	}
}

// TestForkJoinPartitioner: the calls of a partitioner whose runs steal are timed with it, and
// those of the others with the static partitioner, which hands each of two workers one of two
// items.
func TestForkJoinPartitioner(t *testing.T) {
	for p, want := range map[string]string{"stealing": "stealing", "auto": "auto", "static": "static", "dynamic": "static", "guided": "static", "inline": "static"} {
		if got := forkJoinPartitioner(p).Name(); got != want {
			t.Errorf("forkJoinPartitioner(%q) = %s; want %s", p, got, want)
		}
	}
	for _, p := range []string{"stealing", "auto", "static"} {
		run := forkJoinPartitioner(p).Start(0, 2, 2)
		for w := range 2 {
			if lo, hi, ok := run.Next(w); !ok || lo != w || hi != w+1 {
				t.Errorf("%s: worker %d's first Next on 2 items = %d, %d, %v; want its own item", p, w, lo, hi, ok)
			}
		}
	}
}

// TestCallSample: a call trial's figure is, per item, what the sample's items cost as a range
// each less what they cost as one range, less the take. On a clock that only the workload's
// calls move, 2 µs a call, whatever its length: 64 items as 64 ranges against one range read
// 2000·63/64 ns an item, less a take of 100; free calls read nothing. A sample of no items
// reads 0, and a real one times at least one item.
func TestCallSample(t *testing.T) {
	const each, items, take = 2 * time.Microsecond, 64, 100
	clock := &fakeClock{}
	dear := &callSample{inst: &chunkCost{n: 1000, each: each, clock: clock}, items: items, take: take, now: clock.now}
	if got, want := dear.trial(), float64(each.Nanoseconds())*(items-1)/items-take; got != want {
		t.Errorf("a call trial with %v a call on a fake clock = %g ns; want %g", each, got, want)
	}
	free := &callSample{inst: &chunkCost{n: 1000, clock: clock}, items: items, now: clock.now}
	if got := free.trial(); got != 0 {
		t.Errorf("a call trial with free calls on a fake clock = %g ns; want 0", got)
	}
	if got := newCallSample(&chunkCost{}).trial(); got != 0 {
		t.Errorf("a call trial with no items = %g; want 0", got)
	}
	if s := newCallSample(&chunkCost{n: 1000, each: each}); s.items < 64 || s.items > 1000 {
		t.Errorf("a call sample of 1000 items, %v a call: %d items; want 64 to 1000", each, s.items)
	}
}

// TestPieceSample: a piece trial's figure is, per item, what the sample's items cost as a
// piece each of one range less what they cost as one piece of it, with no take to subtract: on
// a clock that only the workload's calls move, 2 µs a call, 64 items read 2000·63/64 ns an
// item, free calls nothing, and a sample of no items 0.
func TestPieceSample(t *testing.T) {
	const each, items = 2 * time.Microsecond, 64
	clock := &fakeClock{}
	dear := &callSample{inst: &chunkCost{n: 1000, each: each, clock: clock}, items: items, take: 100, now: clock.now}
	if got, want := dear.pieceTrial(), float64(each.Nanoseconds())*(items-1)/items; got != want {
		t.Errorf("a piece trial with %v a call on a fake clock = %g ns; want %g", each, got, want)
	}
	free := &callSample{inst: &chunkCost{n: 1000, clock: clock}, items: items, now: clock.now}
	if got := free.pieceTrial(); got != 0 {
		t.Errorf("a piece trial with free calls on a fake clock = %g ns; want 0", got)
	}
	if got := newCallSample(&chunkCost{}).pieceTrial(); got != 0 {
		t.Errorf("a piece trial with no items = %g; want 0", got)
	}
}

// TestCalibratorPieceTrials: a Calibrator's piece trials are what its callSample's pieceTrial
// reads, one at a time, and its PieceNs is their median; with no trial made, PieceNs makes
// one, with a sample of its own.
func TestCalibratorPieceTrials(t *testing.T) {
	const each, items = 2 * time.Microsecond, 64
	inst := &chunkCost{n: 1000, each: each}
	cal := NewCalibrator(inst, make(Costs, inst.n+1), 1, 2)
	clock := &fakeClock{}
	inst.clock = clock
	cal.call = &callSample{inst: inst, items: items, now: clock.now}
	want := float64(each.Nanoseconds()) * (items - 1) / items
	for range 3 {
		if got := cal.PieceTrial(); got != want {
			t.Errorf("PieceTrial with %v a call on a fake clock = %g ns; want %g", each, got, want)
		}
	}
	trials := cal.PieceTrials()
	if len(trials) != 3 || len(cal.CallTrials()) != 0 {
		t.Fatalf("PieceTrials after 3 piece trials = %v, and %d call trials; want 3 figures and none", trials, len(cal.CallTrials()))
	}
	if got, want := cal.PieceNs(), lowerMedian(trials); got != want || len(cal.PieceTrials()) != 3 {
		t.Errorf("PieceNs = %g after trials %v; want their median %g, and no trial more", got, trials, want)
	}
	fresh := NewCalibrator(&chunkCost{n: 1000, each: each}, make(Costs, inst.n+1), 1, 2)
	if got := fresh.PieceNs(); got < 0 || len(fresh.PieceTrials()) != 1 || fresh.call == nil {
		t.Errorf("PieceNs of a Calibrator without piece trials = %g after %d trials; want at least 0 after one, of a sample it made", got, len(fresh.PieceTrials()))
	}
}

// TestCallerPiecesRun: the piece trials' run gives worker 0 the whole range in one Next,
// pieces of the size asked for, and never asks for a give-back; the other workers get
// nothing and do not wait.
func TestCallerPiecesRun(t *testing.T) {
	run := callerPieces{piece: 7}.Start(10, 110, 2).(partproto.SplittingRun)
	if _, _, ok := run.Next(1); ok || run.Idle(1) {
		t.Errorf("worker 1: Next ok %v, Idle %v; want neither", ok, run.Idle(1))
	}
	if lo, hi, ok := run.Next(0); lo != 10 || hi != 110 || !ok {
		t.Errorf("worker 0's Next = %d, %d, %v; want 10, 110, true", lo, hi, ok)
	}
	if p := run.Piece(0); p != 7 {
		t.Errorf("Piece = %d; want 7", p)
	}
	for next := 17; next < 110; next += 7 {
		if run.Hungry(0, next) {
			t.Fatalf("Hungry(0, %d) = true; want false: no worker waits or steals", next)
		}
	}
	if _, _, ok := run.Next(0); ok {
		t.Errorf("worker 0's second Next found work; want none")
	}
}

// TestPiecesAreCharged: a range processed in pieces costs CallNs for its first piece and
// PieceNs for each after it. callerPieces hands worker 0 all 1000 items as one range of 100
// pieces: one call and 99 pieces.
func TestPiecesAreCharged(t *testing.T) {
	c := make(Costs, 1001)
	for i := range 1000 {
		c[i+1] = c[i] + 1
	}
	p := impls.Partitioner{Name: "callerpieces", New: func(func() int64) partition.Partitioner { return callerPieces{piece: 10} }}
	base := Run(c, p, 2, Model{UnitNs: 1}).MakespanNs
	for _, tc := range []struct {
		call, piece, want float64 // want: the added makespan
	}{{1000, 0, 1000}, {0, 1000, 99_000}, {1000, 10, 1990}} {
		got := Run(c, p, 2, Model{UnitNs: 1, CallNs: tc.call, PieceNs: tc.piece}).MakespanNs - base
		if got != tc.want {
			t.Errorf("call %g, piece %g: added %g ns to the makespan; want %g", tc.call, tc.piece, got, tc.want)
		}
	}
}

// TestMachineModelPieces: Machine.Model charges a piece the calibrated PieceNs, and, for a
// calibration recorded without it, piecePerCall calls.
func TestMachineModelPieces(t *testing.T) {
	old := Machine{CallNs: 30}
	if m := old.Model("auto", 2, 1); m.CallNs != 30 || m.PieceNs != piecePerCall*30 {
		t.Errorf("Model of a calibration without pieces: call %g, piece %g; want 30, %g", m.CallNs, m.PieceNs, piecePerCall*30.0)
	}
	piece := 12.0
	cal := Machine{CallNs: 30, PieceNs: &piece}
	if m := cal.Model("auto", 2, 1); m.CallNs != 30 || m.PieceNs != 12 {
		t.Errorf("Model with piece 12: call %g, piece %g; want 30, 12", m.CallNs, m.PieceNs)
	}
	zero := 0.0
	cal.PieceNs = &zero
	if m := cal.Model("auto", 2, 1); m.PieceNs != 0 {
		t.Errorf("Model with a piece measured at 0: piece %g; want 0", m.PieceNs)
	}
}

// fakeClock is a clock that moves only when told to; any goroutine may read or move it.
type fakeClock struct{ ns atomic.Int64 }

var fakeEpoch = time.Unix(0, 0)

func (c *fakeClock) now() time.Time          { return fakeEpoch.Add(time.Duration(c.ns.Load())) }
func (c *fakeClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// TestCalibratorCallTrials: a Calibrator's call trials are what its callSample's trial reads,
// one at a time, and its CallNs is their median; with no trial made, CallNs makes one, with a
// sample of its own.
func TestCalibratorCallTrials(t *testing.T) {
	const each, items = 2 * time.Microsecond, 64
	inst := &chunkCost{n: 1000, each: each}
	cal := NewCalibrator(inst, make(Costs, inst.n+1), 1, 2)
	clock := &fakeClock{}
	inst.clock = clock
	cal.call = &callSample{inst: inst, items: items, now: clock.now}
	want := float64(each.Nanoseconds()) * (items - 1) / items
	for range 3 {
		if got := cal.CallTrial(); got != want {
			t.Errorf("CallTrial with %v a call on a fake clock = %g ns; want %g", each, got, want)
		}
	}
	trials := cal.CallTrials()
	if len(trials) != 3 {
		t.Fatalf("CallTrials after 3 trials = %v; want 3 figures", trials)
	}
	if got, want := cal.CallNs(), lowerMedian(trials); got != want || len(cal.CallTrials()) != 3 {
		t.Errorf("CallNs = %g after trials %v; want their median %g, and no trial more", got, trials, want)
	}
	fresh := NewCalibrator(&chunkCost{n: 1000, each: each}, make(Costs, inst.n+1), 1, 2)
	// On the real clock a figure is at least 0 (see excessOver), however busy the machine.
	if got := fresh.CallNs(); got < 0 || len(fresh.CallTrials()) != 1 || fresh.call == nil {
		t.Errorf("CallNs of a Calibrator without call trials = %g after %d trials; want at least 0 after one, of a sample it made", got, len(fresh.CallTrials()))
	}
}

// TestTransferTrials: a Calibrator for 2 procs times a transfer at each TransferTrial and after
// each restart trial, and TransferNs is the median of them all; one for 1 proc makes none.
func TestTransferTrials(t *testing.T) {
	inst := &chunkCost{n: 1000}
	cal := NewCalibrator(inst, make(Costs, inst.n+1), 1, 2)
	if _, ok := cal.TransferNs(); ok {
		t.Error("TransferNs before any trial reports one")
	}
	for range 2 {
		if got := cal.TransferTrial(); !(got > 0) {
			t.Errorf("TransferTrial with 2 procs = %g; want > 0", got)
		}
	}
	cal.RestartTrial()
	trials := cal.TransferTrials()
	if len(trials) != 3 {
		t.Fatalf("TransferTrials after 2 trials and a restart trial = %v; want 3 figures", trials)
	}
	if got, ok := cal.TransferNs(); !ok || got != lowerMedian(trials) {
		t.Errorf("TransferNs = %g, %v; want the median of %v", got, ok, trials)
	}
	one := NewCalibrator(inst, make(Costs, inst.n+1), 1, 1)
	one.RestartTrial()
	if got := one.TransferTrial(); got != 0 || len(one.TransferTrials()) != 0 {
		t.Errorf("1 proc: TransferTrial = %g with trials %v; want 0 and none", got, one.TransferTrials())
	}
}

// TestDrainRunsOnceAtLeast: a drain whose time is up before its first run still makes one, so
// that every goroutine's Next loop counts (each counts its last, empty Next) and a take is
// never 0 ns over 0 calls; and it reports one empty Next per goroutine, which the takes leave
// out, beside at least one that handed out a range.
func TestDrainRunsOnceAtLeast(t *testing.T) {
	for _, p := range impls.Partitioners() {
		for k := 1; k <= 2; k++ {
			d, calls, empties := drainFor(p.New(nil), 100, k, 0)
			if empties != float64(k) || calls <= empties || d < 0 {
				t.Errorf("%s, %d goroutines: drainFor with no time = %v over %g calls, %g of them empty; want one run: %d empty calls and more calls than that", p.Name, k, d, calls, empties, k)
			}
		}
	}
}

// TestDrainReleasesRuns: a drain releases every run it starts once its goroutines are done, as
// pfor does, so that its takes are those of a reused run, which allocates nothing.
func TestDrainReleasesRuns(t *testing.T) {
	for _, p := range impls.Partitioners() {
		for k := 1; k <= 2; k++ {
			c := &countingPartitioner{Partitioner: p.New(nil)}
			drainFor(c, 1000, k, 2*time.Millisecond)
			if c.starts == 0 || c.releases != c.starts || c.early.Load() {
				t.Errorf("%s, %d goroutines: %d runs started, %d released (a Next after a Release: %v); want each released once, after its last Next",
					p.Name, k, c.starts, c.releases, c.early.Load())
			}
		}
	}
}

// countingPartitioner counts the runs it starts and their Release calls, and notes a Next
// called on a run after its Release.
type countingPartitioner struct {
	partition.Partitioner
	starts, releases int
	early            atomic.Bool
}

func (c *countingPartitioner) Start(lo, hi, workers int) partition.Run {
	c.starts++
	return &countingRun{Run: c.Partitioner.Start(lo, hi, workers), c: c}
}

type countingRun struct {
	partition.Run
	c        *countingPartitioner
	released atomic.Bool
}

func (r *countingRun) Next(w int) (lo, hi int, ok bool) {
	if r.released.Load() {
		r.c.early.Store(true)
	}
	return r.Run.Next(w)
}

func (r *countingRun) Release() {
	r.c.releases++
	r.released.Store(true)
	if rel, ok := r.Run.(partproto.Releaser); ok {
		rel.Release()
	}
}

// TestRestartLeavesOutEachTrialsTransfer: RestartNs subtracts from each restart trial the
// transfer timed just after it, then the take from their median. Trials of 300 to 330 ns, the
// first two with transfers of 250 and 260 ns and the last two with 70 and 80, leave 50, 50,
// 250 and 250: the restart is 50 less the take, where less one transfer figure for all (or
// none) it would follow the trials' median alone.
func TestRestartLeavesOutEachTrialsTransfer(t *testing.T) {
	cal := &Calibrator{restart: []float64{300, 310, 320, 330}, restartTransfer: []float64{250, 260, 70, 80}}
	if got := cal.RestartNs(5); got != 45 {
		t.Errorf("RestartNs(5) = %g; want 45", got)
	}
}

// TestRestartOfTheRepetitionsState: a repetition is charged the restart of the trials made
// while the transfer read as it did for the repetition, within a factor of 2, when there are
// five of them; otherwise that of all the trials. Five trials at a transfer of about 75 ns
// leave 230 to 262 ns (median 240), five at about 260 ns leave 130 to 155 (median 130); the
// take is 20.
func TestRestartOfTheRepetitionsState(t *testing.T) {
	trials := []float64{300, 310, 320, 330, 340, 380, 390, 400, 410, 420}
	transfers := []float64{70, 75, 80, 72, 78, 250, 260, 270, 255, 265}
	for _, tc := range []struct {
		name       string
		transferNs float64
		want       float64
	}{
		{"lower level", 75, 220},
		{"higher level", 260, 110},
		{"neither (none within a factor of 2): all", 1000, 135},
		{"no transfer: all", 0, 135},
	} {
		if got := restartAt(trials, transfers, 20, tc.transferNs); got != tc.want {
			t.Errorf("%s: restartAt(transfer %g) = %g; want %g", tc.name, tc.transferNs, got, tc.want)
		}
	}
	// Four trials at the higher level are too few to count alone.
	if got := restartAt(trials[:9], transfers[:9], 20, 260); got != 210 {
		t.Errorf("four trials at the repetition's level: restartAt = %g; want 210, that of all nine", got)
	}
	w := Workload{RestartNs: 1, RestartTrialsNs: trials, RestartTransfersNs: transfers, RestartTakeNs: 20}
	if got := w.with(nil, nil, []float64{75, 260}, 1); got.RestartNs != 110 || got.Machine.TransferNs != 260 {
		t.Errorf("with(transfers 75, 260; 1): restart %g, transfer %g; want 110, 260", got.RestartNs, got.Machine.TransferNs)
	}
	if got := (Workload{RestartNs: 1}).with(nil, nil, []float64{75}, 0); got.RestartNs != 1 {
		t.Errorf("with, no restart trials kept: restart %g; want the workload's, 1", got.RestartNs)
	}
}

// TestCallerOnlyHandsTheCallerEverything: the call trials' run gives worker 0 the whole range
// in order, grain items at a time (the last range shorter), and every other worker nothing,
// before and after worker 0's ranges run out.
func TestCallerOnlyHandsTheCallerEverything(t *testing.T) {
	run := callerOnly{grain: 4}.Start(10, 21, 3)
	if _, _, ok := run.Next(1); ok {
		t.Fatal("worker 1 got a range; want none")
	}
	var got [][2]int
	for lo, hi, ok := run.Next(0); ok; lo, hi, ok = run.Next(0) {
		got = append(got, [2]int{lo, hi})
	}
	if want := [][2]int{{10, 14}, {14, 18}, {18, 21}}; !slices.Equal(got, want) {
		t.Errorf("worker 0's ranges %v; want %v", got, want)
	}
	if _, _, ok := run.Next(2); ok {
		t.Error("worker 2 got a range after worker 0's ran out; want none")
	}
}

// chunkCost is an instance of n items whose Chunk waits each, whatever its length (or moves
// clock on by each), or returns at once if each is 0.
type chunkCost struct {
	workload.Instance
	n     int
	each  time.Duration
	clock *fakeClock // if not nil, a call moves it on instead of waiting
}

func (c *chunkCost) Len() int { return c.n }
func (c *chunkCost) Reset()   {}
func (c *chunkCost) Chunk(lo, hi int) {
	if c.each == 0 {
		return
	}
	if c.clock != nil {
		c.clock.advance(c.each)
		return
	}
	for t := time.Now(); time.Since(t) < c.each; {
	}
}

// TestRestartTrialJoinsEachCall: in both passes of a restart trial, no goroutine starts a
// call's items before every goroutine has finished the call before, as at a loop's join; the
// goroutine of the second half is slowed down, so that one that does not wait runs ahead.
func TestRestartTrialJoinsEachCall(t *testing.T) {
	const n, calls = 1000, 20
	inst := &callOrder{n: n, calls: calls}
	cal := NewCalibrator(inst, make(Costs, n+1), calls, 2)
	for range 2 { // one trial of each order of the passes
		cal.RestartTrial()
	}
	if inst.early.Load() != 0 {
		t.Fatalf("%d chunks started before the call before them had ended on every goroutine", inst.early.Load())
	}
	if got, want := inst.items.Load(), int64(2*2*calls*n); got != want {
		t.Fatalf("restart trials processed %d items; want %d (two passes of %d calls, twice)", got, want, calls)
	}
}

// callOrder is an Instance that counts, for a restart trial, the chunks that start a call's
// items before all of the previous call's have run (early). It tells the passes apart by
// their chunks: the contiguous pass's start at 0 and n/2 and are n/2 long, the cursor pass's
// are restartChunk long at multiples of it. A Reset, at the end of a trial, starts over.
type callOrder struct {
	n, calls     int
	items, early atomic.Int64
	mu           sync.Mutex
	done         map[bool]int // items done in the current pass, by kind (contiguous or not)
	started      [2]int       // contiguous calls started, by goroutine
	cursorStarts int          // cursor chunks at 0 started: the cursor pass's calls started
}

func (o *callOrder) Len() int { return o.n }
func (o *callOrder) Reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done, o.started, o.cursorStarts = nil, [2]int{}, 0
}
func (o *callOrder) Item(i int)         { o.Chunk(i, i+1) }
func (o *callOrder) Checksum() uint64   { return uint64(o.items.Load()) }
func (o *callOrder) Cost(i int) float64 { return 1 }
func (o *callOrder) Chunk(lo, hi int) {
	half := o.n / 2
	contiguous := hi-lo == half && (lo == 0 || lo == half)
	o.mu.Lock()
	if o.done == nil {
		o.done = map[bool]int{}
	}
	// The call a chunk starts: a contiguous goroutine's m-th chunk starts call m, and the
	// m-th cursor chunk at 0 starts call m of the cursor pass. Call m may start once the
	// items of the m calls before it are done.
	call := -1
	switch {
	case contiguous:
		g := lo / half
		call = o.started[g]
		o.started[g]++
	case lo == 0:
		call = o.cursorStarts
		o.cursorStarts++
	}
	if call >= 0 && o.done[contiguous] < call*o.n {
		o.early.Add(1)
	}
	o.mu.Unlock()
	if lo == half || lo >= half && !contiguous {
		time.Sleep(20 * time.Microsecond) // the second half's goroutine is slow
	}
	o.mu.Lock()
	o.done[contiguous] += hi - lo
	if o.done[contiguous] == o.calls*o.n { // the pass is over
		o.done[contiguous] = 0
		if contiguous {
			o.started = [2]int{}
		} else {
			o.cursorStarts = 0
		}
	}
	o.mu.Unlock()
	o.items.Add(int64(hi - lo))
}

// TestPingPongGivesUp: a ping-pong whose goroutines cannot both run (one proc) gives up once
// its limit has passed, and counts the steps it made: at least one, fewer than all. (How long
// after its limit it ends depends on how busy the machine is; only the lower bound holds.)
func TestPingPongGivesUp(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const limit = 5 * time.Millisecond
	d, steps := pingPongWithin(limit)
	if d < limit || !(steps >= 1 && steps < pingPongSteps) {
		t.Errorf("ping-pong on one proc, giving up after %v: %v for %g steps; want at least %v and 1 to %d steps", limit, d, steps, limit, pingPongSteps-1)
	}
}

// TestPingPong: a ping-pong of two running goroutines makes all its steps, and a step costs
// something, in one ping-pong and in the median trial as CalibrateMachine takes it. (What a
// step costs is the machine's: on a busy one a step waits for both goroutines' threads to run
// at once, so no upper bound holds.)
func TestPingPong(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	// A limit no wait for a core reaches: the ping-pong ends by its steps.
	if d, steps := pingPongWithin(time.Minute); d <= 0 || steps != pingPongSteps {
		t.Errorf("ping-pong on two procs: %v for %g steps; want more than 0 for all %d", d, steps, pingPongSteps)
	}
	if per := typical(pingPong); !(per > 0) {
		t.Fatalf("ping-pong: %g ns a step (the median trial); want more than 0", per)
	}
}

// TestTransferFigureLeavesOutPingPongsThatGaveUp: a transfer trial's figure is the median of
// the ping-pongs that completed, however many gave up among them; with none completed, it is
// the lower median of the earlier figures, or with none, the ping-pongs' that gave up.
func TestTransferFigureLeavesOutPingPongsThatGaveUp(t *testing.T) {
	// pingPongs returns ping-pongs that complete at perStep ns a step, every other one giving
	// up after 4 steps and 5 ms if gaveUp, counting them in *made.
	pingPongs := func(perStep float64, gaveUp bool, made *int) func() (time.Duration, float64) {
		return func() (time.Duration, float64) {
			*made++
			if gaveUp && *made%2 == 1 {
				return 5 * time.Millisecond, 4
			}
			return time.Duration(perStep * pingPongSteps), pingPongSteps
		}
	}
	var made int
	if got := transferFigure(pingPongs(80, true, &made), nil); got != 80 {
		t.Errorf("half the ping-pongs gave up: %g ns; want the completed ones' 80", got)
	}
	if made > transferTries {
		t.Errorf("made %d ping-pongs; want at most %d", made, transferTries)
	}
	never := func() (time.Duration, float64) { return 5 * time.Millisecond, 4 }
	if got := transferFigure(never, []float64{90, 250, 70}); got != 90 {
		t.Errorf("every ping-pong gave up, earlier 90, 250, 70: %g ns; want their lower median 90", got)
	}
	if got, want := transferFigure(never, nil), float64(5*time.Millisecond)/4; got != want {
		t.Errorf("every ping-pong gave up, nothing earlier: %g ns; want theirs, %g", got, want)
	}
}

// coldStart is an instance of n items whose Chunk takes each per item on clock, and whose
// first cold Chunk calls take coldWait more: data that a core has to fetch before it runs at
// its speed.
type coldStart struct {
	workload.Instance
	n, cold  int
	each     time.Duration
	coldWait time.Duration
	clock    *coreClocks
	calls    atomic.Int64
}

func (c *coldStart) Len() int { return c.n }
func (c *coldStart) Reset()   {}
func (c *coldStart) Chunk(lo, hi int) {
	d := time.Duration(hi-lo) * c.each
	if c.calls.Add(1) <= int64(c.cold) { // counts the call; the goroutines' first calls are the cold ones
		d += c.coldWait
	}
	c.clock.advance(d)
}

// coreClocks is a fake clock for goroutines that each have a core of their own: a goroutine
// that has moved it on reads its own time, what it moved it by; any other goroutine reads
// the sum of them all, as the wall time of a run that awaits them all.
type coreClocks struct {
	mu    sync.Mutex
	own   map[uint64]time.Duration
	total time.Duration
}

func (c *coreClocks) advance(d time.Duration) {
	g := goroutineID()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.own == nil {
		c.own = map[uint64]time.Duration{}
	}
	c.own[g] += d
	c.total += d
}

func (c *coreClocks) now() time.Time {
	g := goroutineID()
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.own[g]; ok {
		return fakeEpoch.Add(d)
	}
	return fakeEpoch.Add(c.total)
}

// goroutineID returns the calling goroutine's id, as runtime.Stack prints it.
func goroutineID() uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, err := strconv.ParseUint(strings.Fields(string(buf))[1], 10, 64) // "goroutine 18 [running]:"
	if err != nil {
		panic("goroutineID: " + string(buf))
	}
	return id
}

// TestTrialTimesWarmCores: a trial's figure is the time of its items on warm cores. The first
// Chunk call of each goroutine (k of them) takes 200 ms more, about 24 times the trial's
// counted time (20 passes over the range, longer than minTrial, so the trial is not made
// again): counted, it would read about 25 times the items' 100 ns a unit; uncounted, as the
// warm-up, the figure is the items' own. The items take their time on a fake clock, each
// goroutine's its own, so that the figures are exact however busy the machine.
func TestTrialTimesWarmCores(t *testing.T) {
	const n, calls, each = 4096, 20, 100 * time.Nanosecond
	costs := make(Costs, n+1)
	for i := range costs {
		costs[i] = float64(i) // one unit an item
	}
	for k := 1; k <= 2; k++ {
		clock := &coreClocks{}
		inst := &coldStart{n: n, cold: k, each: each, coldWait: 200 * time.Millisecond, clock: clock}
		cal := NewCalibrator(inst, costs, calls, k)
		cal.now = clock.now
		for g, f := range cal.TrialWith(k) {
			if f != float64(each) {
				t.Errorf("k=%d: goroutine %d's figure %g ns a unit; want the warm items' %d", k, g, f, each)
			}
		}
		if got, want := inst.calls.Load(), int64(k+calls*n/64); got < want {
			t.Errorf("k=%d: %d Chunk calls; want the cold ones and then at least %d", k, got, want)
		}
	}
}
