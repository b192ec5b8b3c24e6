package simulate_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
)

// costsOf returns the prefix costs of a workload at size n.
func costsOf(t *testing.T, name string, n int) simulate.Costs {
	t.Helper()
	w, ok := workloads.ByName(name)
	if !ok {
		t.Fatalf("no workload %q", name)
	}
	return simulate.PrefixCosts(w.New(n))
}

// someModel charges every kind of cost, so that the tests see them all.
var someModel = simulate.Model{UnitNs: 1.5, TakeNs: 20, StealNs: 100, FailNs: 10, RestartNs: 40, ForkNs: 500, JoinNs: 300}

func TestDeterministic(t *testing.T) {
	c := costsOf(t, "randomskew", 5_000)
	for _, p := range impls.Partitioners() {
		for _, k := range []int{2, 7, 64} {
			a, b := simulate.Run(c, p, k, someModel), simulate.Run(c, p, k, someModel)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s, %d workers: two runs differ:\n%+v\n%+v", p.Name, k, a, b)
			}
		}
	}
}

// TestOneWorkerIsTheSumOfCosts: pfor runs one worker inline, so the makespan is the total
// cost times the unit, whatever the partitioner and the scheduling costs.
func TestOneWorkerIsTheSumOfCosts(t *testing.T) {
	for _, name := range []string{"tailheavy", "mandelbrot", "spmv"} {
		c := costsOf(t, name, 400)
		var sum float64
		for i := range c.Len() {
			sum += c[i+1] - c[i]
		}
		for _, p := range impls.Partitioners() {
			r := simulate.Run(c, p, 1, someModel)
			if want := sum * someModel.UnitNs; math.Abs(r.MakespanNs-want) > 1e-9*want {
				t.Errorf("%s, %s, 1 worker: makespan %g; want the sum of costs %g", name, p.Name, r.MakespanNs, want)
			}
			if r.Efficiency != 1 || r.Imbalance != 1 || r.Steals != 0 || r.Chunks != 1 {
				t.Errorf("%s, %s, 1 worker: %+v; want efficiency 1, imbalance 1, no steals, one chunk", name, p.Name, r)
			}
		}
	}
}

// TestWorkIsConserved: with free scheduling, the busy time of all workers adds up to the
// sequential time, so makespan >= sequential/workers, and efficiency <= 1.
func TestWorkIsConserved(t *testing.T) {
	free := simulate.Model{UnitNs: 1}
	c := costsOf(t, "triangular", 2_000)
	for _, p := range impls.Partitioners() {
		for _, k := range []int{2, 3, 16, 256, 4096} {
			r := simulate.Run(c, p, k, free)
			if r.MakespanNs < c.Total()/float64(k)*(1-1e-12) || r.Efficiency > 1+1e-12 {
				t.Errorf("%s, %d workers: makespan %g below the ideal %g", p.Name, k, r.MakespanNs, c.Total()/float64(k))
			}
			if r.Chunks < 1 || r.Imbalance < 1 || r.Imbalance > float64(k)+1e-9 {
				t.Errorf("%s, %d workers: %+v", p.Name, k, r)
			}
		}
	}
}

// TestStaticIsTheLargestBlock: with free scheduling, static's makespan is its costliest
// block, and on tailheavy that is the last one, which holds all the heavy items; the
// stealing partitioners balance it by stealing. (The unit is 2.5 ns, a plausible Spin
// iteration: auto sizes its batches in time, and with far fewer heavy items than a 10 µs
// batch of light ones it would take the whole tail in one batch, as it does for real.)
func TestStaticIsTheLargestBlock(t *testing.T) {
	const n, k = 20_000, 2
	c := costsOf(t, "tailheavy", n)
	m := simulate.Model{UnitNs: 2.5}
	r := simulate.Run(c, impls.Partitioners()[0], k, m)
	if want := (c[n] - c[n/2]) * m.UnitNs; r.MakespanNs != want {
		t.Errorf("static on tailheavy, 2 workers: makespan %g; want the second block's cost %g", r.MakespanNs, want)
	}
	if r.Steals != 0 || r.Chunks != 2 {
		t.Errorf("static: %d steals, %d chunks; want 0 and 2", r.Steals, r.Chunks)
	}
	for _, p := range impls.Partitioners()[3:] { // stealing, auto
		if s := simulate.Run(c, p, k, m); s.MakespanNs > 0.7*r.MakespanNs || s.Steals == 0 {
			t.Errorf("%s on tailheavy: makespan %g with %d steals; want under 70%% of static's %g, by stealing", p.Name, s.MakespanNs, s.Steals, r.MakespanNs)
		}
	}
}

// TestWorkersAtTheirOwnSpeed: with a unit per worker, static's two halves of uniform work
// take as long as the slower worker makes them, while dynamic's chunks go to whichever worker
// is free, so that the faster one runs more of them and the call ends near the time of the
// two speeds together. One worker runs inline at the first unit.
func TestWorkersAtTheirOwnSpeed(t *testing.T) {
	const n = 20_000
	c := costsOf(t, "uniform", n)
	m := simulate.Model{UnitNs: 1.5, WorkerUnitNs: []float64{1, 2}}
	static := simulate.Run(c, impls.Partitioners()[0], 2, m)
	if want := (c[n] - c[n/2]) * 2; static.MakespanNs != want {
		t.Errorf("static with units 1 and 2: makespan %g; want the slower worker's half, %g", static.MakespanNs, want)
	}
	balanced := c.Total() / (1.0/1 + 1.0/2) // both busy to the end
	if d := simulate.Run(c, impls.Partitioners()[1], 2, m); d.MakespanNs > 1.02*balanced || d.MakespanNs < balanced {
		t.Errorf("dynamic with units 1 and 2: makespan %g; want within 2%% above %g, the two speeds together", d.MakespanNs, balanced)
	}
	if one := simulate.Run(c, impls.Partitioners()[0], 1, m); one.MakespanNs != c.Total() {
		t.Errorf("one worker with units 1 and 2: makespan %g; want %g, at the first unit", one.MakespanNs, c.Total())
	}
}

func TestOverheadsAreCharged(t *testing.T) {
	c := costsOf(t, "uniform", 1_000)
	free := simulate.Model{UnitNs: 1}
	p := impls.Partitioners()[1] // dynamic(64): 16 chunks
	a := simulate.Run(c, p, 2, free)
	b := simulate.Run(c, p, 2, simulate.Model{UnitNs: 1, TakeNs: 1000, ForkNs: 5000, JoinNs: 7000})
	if b.MakespanNs < a.MakespanNs+7000+8*1000 {
		t.Errorf("dynamic with take, fork and join costs: makespan %g; want at least %g", b.MakespanNs, a.MakespanNs+7000+8*1000)
	}
}

// partitionerNamed returns the partitioner of impls.Partitioners with that name.
func partitionerNamed(t *testing.T, name string) impls.Partitioner {
	t.Helper()
	for _, q := range impls.Partitioners() {
		if q.Name == name {
			return q
		}
	}
	t.Fatalf("no partitioner %q", name)
	return impls.Partitioner{}
}

// TestSharedCursorTransfers: a take from a shared cursor after another worker's pays
// TransferNs. Dynamic's two workers alternate over 16 chunks of equal cost, so each pays it on
// nearly every take; static has no shared cursor and pays nothing; and a caller that drains
// the cursor alone, its helper arriving after the work is done, pays nothing either.
func TestSharedCursorTransfers(t *testing.T) {
	c := costsOf(t, "uniform", 1_000)
	const transfer = 1000
	dynamic, static := partitionerNamed(t, "dynamic"), partitionerNamed(t, "static")
	free, paid := simulate.Model{UnitNs: 1}, simulate.Model{UnitNs: 1, TransferNs: transfer}
	// 8 chunks and a last, empty take each, all after the other worker's but the first.
	if d := (simulate.Run(c, dynamic, 2, paid).MakespanNs - simulate.Run(c, dynamic, 2, free).MakespanNs) / transfer; d < 7 || d > 9 {
		t.Errorf("dynamic, 2 workers: the transfers added %g to the makespan; want 7 to 9", d)
	}
	if a, b := simulate.Run(c, static, 2, free), simulate.Run(c, static, 2, paid); a.MakespanNs != b.MakespanNs {
		t.Errorf("static, 2 workers: makespan %g with transfers, %g without; want them equal", b.MakespanNs, a.MakespanNs)
	}
	late := func(m simulate.Model) simulate.Model { m.ForkNs = 10 * c.Total(); return m }
	if a, b := simulate.Run(c, dynamic, 2, late(free)), simulate.Run(c, dynamic, 2, late(paid)); a.MakespanNs != b.MakespanNs {
		t.Errorf("dynamic, caller alone: makespan %g with transfers, %g without; want them equal", b.MakespanNs, a.MakespanNs)
	}
}

// TestSharedCursorChunksPayTheTrialsAverage: while two workers take dynamic's 64-item chunks
// from its cursor, every chunk pays a transfer and a restart, also one that a worker takes
// right after its own previous chunk: the restart trial measured such chunks' average cost,
// whoever took each one before (see Calibrator.RestartNs). Here one worker runs an item in 1
// ns and the other in 2, so that the faster often takes two chunks in a row; with each chunk
// paying its 100 ns, the two share the 1000 chunks so that both end together, at
// 1000 / (1/(64+100) + 1/(128+100)) ns.
func TestSharedCursorChunksPayTheTrialsAverage(t *testing.T) {
	c := costsOf(t, "uniform", 64_000) // 1000 chunks of 64 items
	item := c.Total() / 64_000         // every item costs the same
	dynamic := partitionerNamed(t, "dynamic")
	m := simulate.Model{UnitNs: 1 / item, WorkerUnitNs: []float64{1 / item, 2 / item}, TransferNs: 40, RestartNs: 60}
	want := 1000 / (1.0/(64+100) + 1.0/(128+100))
	if got := simulate.Run(c, dynamic, 2, m).MakespanNs; math.Abs(got/want-1) > 0.005 {
		t.Errorf("dynamic, workers at 1 and 2 ns an item: makespan %.0f; want %.0f, every chunk paying its transfer and restart", got, want)
	}
}

// TestStealsPayATransfer: a successful steal pays TransferNs on top of StealNs, its CAS taking
// the line of the victim's range, and a stealing partitioner's takes pay none (each worker takes
// from its own range): a transfer costs a stealing run exactly what a steal of the same cost
// does.
func TestStealsPayATransfer(t *testing.T) {
	c := costsOf(t, "tailheavy", 10_000)
	transfer := c.Total() // a stolen range then ends after all the work would have
	for _, name := range []string{"stealing", "auto"} {
		p := partitionerNamed(t, name)
		free := simulate.Run(c, p, 2, simulate.Model{UnitNs: 1})
		paid := simulate.Run(c, p, 2, simulate.Model{UnitNs: 1, TransferNs: transfer})
		asSteal := simulate.Run(c, p, 2, simulate.Model{UnitNs: 1, StealNs: transfer})
		if paid.Steals == 0 || paid.MakespanNs <= free.MakespanNs {
			t.Errorf("%s, 2 workers: %d steals, makespan %g with transfers, %g without; want steals and a longer makespan", name, paid.Steals, paid.MakespanNs, free.MakespanNs)
		}
		if paid != asSteal {
			t.Errorf("%s, 2 workers: with transfers %+v; want %+v, as with steals of the same cost", name, paid, asSteal)
		}
	}
}

// TestRestarts: a restart is charged for each range that does not continue its worker's
// previous one. Static gives each worker one block, so its two workers pay one restart each,
// at the same time; dynamic hands its 64-item chunks out in turn, so nearly every chunk is a
// restart. Guided's chunks shrink to one item at the end, and a chunk under 64 items pays its
// share of a restart: its 39 chunks, 19 of them under 64 items, cost about 8 restarts, not 16.
func TestRestarts(t *testing.T) {
	c := costsOf(t, "uniform", 64_000) // 1000 chunks of 64 for dynamic
	const restart = 1000
	for _, tc := range []struct {
		partitioner string
		least, most float64 // bounds on the added makespan, in restarts
	}{{"static", 1, 1}, {"dynamic", 400, 500}, {"guided", 6, 11}} {
		p := partitionerNamed(t, tc.partitioner)
		a := simulate.Run(c, p, 2, simulate.Model{UnitNs: 1})
		b := simulate.Run(c, p, 2, simulate.Model{UnitNs: 1, RestartNs: restart})
		if d := (b.MakespanNs - a.MakespanNs) / restart; d < tc.least || d > tc.most {
			t.Errorf("%s, 2 workers: a restart cost of %d ns added %g restarts to the makespan; want %g to %g", tc.partitioner, restart, d, tc.least, tc.most)
		}
		if one := simulate.Run(c, p, 1, simulate.Model{UnitNs: 1, RestartNs: restart}); one.MakespanNs != c.Total() {
			t.Errorf("%s, 1 worker: makespan %g with restarts; want %g, the inline run's, which has none", tc.partitioner, one.MakespanNs, c.Total())
		}
	}
}

// TestCallsAreCharged: each call of the body costs CallNs. Static hands each of 2 workers one
// range, one call each, at the same time; dynamic's 1000 chunks of 64 are 500 calls a worker.
func TestCallsAreCharged(t *testing.T) {
	c := costsOf(t, "uniform", 64_000)
	const call = 1000
	for _, tc := range []struct {
		partitioner string
		least, most float64 // bounds on the added makespan, in calls
	}{{"static", 1, 1}, {"dynamic", 490, 510}} {
		p := partitionerNamed(t, tc.partitioner)
		a := simulate.Run(c, p, 2, simulate.Model{UnitNs: 1})
		b := simulate.Run(c, p, 2, simulate.Model{UnitNs: 1, CallNs: call})
		if d := (b.MakespanNs - a.MakespanNs) / call; d < tc.least || d > tc.most {
			t.Errorf("%s, 2 workers: a call cost of %d ns added %g calls to the makespan; want %g to %g", tc.partitioner, call, d, tc.least, tc.most)
		}
	}
}

// TestRestartCost: a restart is measured on 64-item chunks; a range as long or longer pays
// all of it, a shorter one its share.
func TestRestartCost(t *testing.T) {
	for _, tc := range []struct {
		items int
		want  float64
	}{{64, 1000}, {6400, 1000}, {32, 500}, {16, 250}, {1, 1000.0 / 64}} {
		if got := simulate.RestartCost(1000, tc.items); got != tc.want {
			t.Errorf("restartCost(1000, %d items) = %g; want %g", tc.items, got, tc.want)
		}
	}
}

func TestCalibrateUnit(t *testing.T) {
	w, _ := workloads.ByName("uniform")
	inst := w.New(2_000)
	c := simulate.PrefixCosts(inst)
	unit := simulate.CalibrateUnit(inst, c, 1, 2)
	if len(unit) != 2 || !(unit[0] > 0) || !(unit[1] > 0) {
		t.Fatalf("CalibrateUnit = %v; want two positive figures", unit)
	}
	// A Calibrator keeps every trial, for each number of goroutines, and a restart figure
	// that is never negative.
	cal := simulate.NewCalibrator(inst, c, 3, 2) // 3 calls per repetition: the restart trial's calls end together
	for range 3 {
		cal.Trial()
	}
	if tr := cal.Trials(); len(tr) != 2 || len(tr[0]) != 3 || len(tr[1]) != 3 {
		t.Errorf("Trials() after 3 trials with 2 goroutines = %v; want 2 lists of 3", tr)
	}
	if r := cal.RestartNs(0); !(r >= 0) {
		t.Errorf("RestartNs() = %g; want >= 0", r)
	}
	// Tiny instances must work too, with more goroutines than items.
	w, _ = workloads.ByName("matmul")
	inst = w.New(3)
	if unit := simulate.CalibrateUnit(inst, simulate.PrefixCosts(inst), 1, 4); len(unit) != 4 || !(unit[3] > 0) {
		t.Fatalf("CalibrateUnit on 3 items with 4 goroutines = %v", unit)
	}
}

// TestSamplesAreDisjoint: in every pass, the k goroutines' calibration chunks lie within
// [0, n) and share no item, so they may run at once.
func TestSamplesAreDisjoint(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 100, 1000, 12345, 1 << 20} {
		seen := make([]int, n) // seen[i] = 1 + the last pass that sampled item i
		for k := 1; k <= 4; k++ {
			clear(seen)
			for p := range 40 {
				items := 0
				for g := range k {
					for _, ch := range simulate.SamplePass(n, k, p, g) {
						if ch[0] < 0 || ch[1] > n || ch[0] >= ch[1] {
							t.Fatalf("n=%d k=%d pass %d goroutine %d: chunk %v outside [0, %d)", n, k, p, g, ch, n)
						}
						for i := ch[0]; i < ch[1]; i++ {
							if seen[i] == p+1 {
								t.Fatalf("n=%d k=%d pass %d: item %d sampled twice", n, k, p, i)
							}
							seen[i] = p + 1
							items++
						}
					}
				}
				if items == 0 {
					t.Fatalf("n=%d k=%d pass %d: empty sample", n, k, p)
				}
			}
		}
	}
}

// TestSamplesRotateThroughTheParts: in pass p, goroutine g samples only part (g + p) mod k of
// the range, [q·n/k, (q+1)·n/k) for part q, so that the goroutines work apart; over k passes
// each goroutine samples every part.
func TestSamplesRotateThroughTheParts(t *testing.T) {
	for _, n := range []int{2, 3, 7, 100, 1000, 12345, 1 << 20} {
		for k := 1; k <= min(4, n); k++ {
			for g := range k {
				visited := map[int]bool{}
				for p := range 3 * k {
					q := (g + p) % k
					lo, hi := q*n/k, (q+1)*n/k
					chunks := simulate.SamplePass(n, k, p, g)
					if len(chunks) == 0 {
						t.Fatalf("n=%d k=%d pass %d goroutine %d: no chunks", n, k, p, g)
					}
					for _, ch := range chunks {
						if ch[0] < lo || ch[1] > hi {
							t.Fatalf("n=%d k=%d pass %d goroutine %d: chunk %v outside part %d [%d, %d)", n, k, p, g, ch, q, lo, hi)
						}
					}
					visited[q] = true
				}
				if len(visited) != k {
					t.Errorf("n=%d k=%d goroutine %d: sampled %d of the %d parts", n, k, g, len(visited), k)
				}
			}
		}
	}
}

// TestEfficiencyRefersToTheSequentialTime: when a unit costs twice as much with two cores
// busy (as for a bandwidth-bound loop), two workers are no faster than one, and their
// efficiency is a half, not 1.
func TestEfficiencyRefersToTheSequentialTime(t *testing.T) {
	c := costsOf(t, "uniform", 1_000)
	m := simulate.Machine{SpinNs: 1}
	w := simulate.Predict("uniform", c, 1, []float64{1, 2}, 0, m, []int{1, 2, 4})
	for _, k := range []int{2, 4} {
		r, _ := w.Prediction("static", k)
		if want := c.Total() / float64(k) * 2; math.Abs(r.MakespanNs-want) > 1e-9*want || math.Abs(r.Efficiency-0.5) > 1e-9 {
			t.Errorf("static, %d workers: makespan %g, efficiency %g; want %g and 0.5", k, r.MakespanNs, r.Efficiency, want)
		}
	}
}

// TestLateHelperFindsItsSlotTaken: as in pfor, the caller starts slot 0 and a helper claims
// slot 1 when it arrives, ForkNs after the call; a helper that arrives after the caller has
// finished slot 0 finds slot 1 claimed by the caller, which runs both halves itself.
func TestLateHelperFindsItsSlotTaken(t *testing.T) {
	const n = 1_000
	c := costsOf(t, "uniform", n)
	static := partitionerNamed(t, "static")
	half := c[n/2] - c[0]
	for _, tc := range []struct {
		fork, want, imbalance float64
	}{
		{fork: 0, want: half, imbalance: 1},                            // both start at once
		{fork: half / 2, want: half/2 + (c[n] - c[n/2]), imbalance: 1}, // the helper runs slot 1, late
		{fork: 2 * half, want: c.Total(), imbalance: 2},                // the caller runs both slots
	} {
		r := simulate.Run(c, static, 2, simulate.Model{UnitNs: 1, ForkNs: tc.fork})
		if math.Abs(r.MakespanNs-tc.want) > 1e-9*tc.want || math.Abs(r.Imbalance-tc.imbalance) > 1e-9 {
			t.Errorf("static, 2 workers, helper arriving at %g: makespan %g, imbalance %g; want %g and %g", tc.fork, r.MakespanNs, r.Imbalance, tc.want, tc.imbalance)
		}
	}
	// A balancing partitioner lets the caller take the late helper's items meanwhile.
	dyn := simulate.Run(c, partitionerNamed(t, "dynamic"), 2, simulate.Model{UnitNs: 1, ForkNs: half})
	if want := half + (c.Total()-half)/2; math.Abs(dyn.MakespanNs-want) > 0.1*want {
		t.Errorf("dynamic, 2 workers, helper arriving at %g: makespan %g; want about %g", half, dyn.MakespanNs, want)
	}
}
