package simulate_test

import (
	"reflect"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/simulate"
)

// evenCosts returns the prefix costs of n items of cost 1 each.
func evenCosts(n int) simulate.Costs {
	c := make(simulate.Costs, n+1)
	for i := range c {
		c[i] = float64(i)
	}
	return c
}

// TestNeighbourStopsAWorker: static's two workers each have 1,500 ns of items beside a
// neighbour on 2 cores in slices of 1,000 ns. Slice 0 runs threads 0 and 1, slice 1 threads 2
// and 0, slice 2 threads 1 and 2. Starting at slice 0, worker 0 ends at 1,500 ns; worker 1,
// off its core in slice 1, its items waiting, ends at 2,500 ns, when the caller (worker 0)
// is off its core: the call returns at 3,000 ns. Starting at slice 1, worker 1 is off first
// and worker 0 in slice 2: both end at 2,500 ns. Starting at slice 2, worker 0 is off first
// and ends at 2,500 ns. With a third core, or no neighbour, both end at 1,500 ns.
func TestNeighbourStopsAWorker(t *testing.T) {
	c := evenCosts(3000)
	static := partitionerNamed(t, "static")
	for _, tc := range []struct {
		nb   *simulate.Neighbour
		want float64
	}{
		{nil, 1500},
		{&simulate.Neighbour{SliceNs: 1000, Cores: 2}, 3000},
		{&simulate.Neighbour{SliceNs: 1000, Cores: 2, PhaseNs: 1000}, 2500},
		{&simulate.Neighbour{SliceNs: 1000, Cores: 2, PhaseNs: 2000}, 2500},
		{&simulate.Neighbour{SliceNs: 1000, Cores: 3}, 1500},
	} {
		r := simulate.Run(c, static, 2, simulate.Model{UnitNs: 1, Neighbour: tc.nb})
		if r.MakespanNs != tc.want {
			t.Errorf("neighbour %+v: makespan %g; want %g", tc.nb, r.MakespanNs, tc.want)
		}
	}
}

// TestNeighbourWaitsForTheCore: dynamic's 64 chunks of 64 items of 1 ns beside a neighbour
// in slices of 1,024 ns, 16 chunks a slice. Worker 1 ends its 16th chunk as its slice ends
// and takes its next only when it runs again, at 2,048 ns; worker 0 takes the chunks in
// between. Each processes 32 chunks and the call ends at 3,072 ns, when the two have run
// 4,096 ns in all. A worker that took a chunk as its slice ended would hold it over the
// slice it is off its core in.
func TestNeighbourWaitsForTheCore(t *testing.T) {
	if impls.DynamicChunk != 64 {
		t.Fatalf("dynamic's chunk is %d items; the test wants 64", impls.DynamicChunk)
	}
	m := simulate.Model{UnitNs: 1, Neighbour: &simulate.Neighbour{SliceNs: 1024, Cores: 2}}
	r := simulate.Run(evenCosts(4096), partitionerNamed(t, "dynamic"), 2, m)
	if r.MakespanNs != 3072 || r.Imbalance != 1 {
		t.Errorf("dynamic: makespan %g, imbalance %g; want 3072 and 1", r.MakespanNs, r.Imbalance)
	}
}

// TestNeighbourStealFromAWorkerOffItsCore: 260,000 ns of even items on 2 workers, slices of
// 100,000 ns; worker 1 is off its core from 100,000 to 200,000 ns. Static's workers process
// 130,000 items each. Auto's worker 0 runs out of its block at about 130,000 ns and steals
// from worker 1's range, which stays in memory while its worker is away: it processes most
// of the 30,000 items worker 1 has left, all but the batch worker 1 holds (about 10,000).
func TestNeighbourStealFromAWorkerOffItsCore(t *testing.T) {
	c := evenCosts(260_000)
	m := simulate.Model{UnitNs: 1, Neighbour: &simulate.Neighbour{SliceNs: 100_000, Cores: 2}}
	if r := simulate.Run(c, partitionerNamed(t, "static"), 2, m); r.Imbalance != 1 {
		t.Fatalf("static: imbalance %g; want 1", r.Imbalance)
	}
	r := simulate.Run(c, partitionerNamed(t, "auto"), 2, m)
	// Worker 0's busy time over the mean: 1 + (what it stole)/130,000.
	if want := 1 + 15_000.0/130_000; r.Steals == 0 || r.Imbalance < want {
		t.Errorf("auto: %d steals, imbalance %g; want a steal and at least %g", r.Steals, r.Imbalance, want)
	}
}

// TestNeighbourWithACoreToSpare: a neighbour with a core of its own changes no prediction,
// and a simulation beside a neighbour is deterministic.
func TestNeighbourWithACoreToSpare(t *testing.T) {
	c := costsOf(t, "randomskew", 5_000)
	for _, p := range impls.Partitioners() {
		for _, k := range []int{1, 2, 7} {
			spare := someModel
			spare.Neighbour = &simulate.Neighbour{SliceNs: 3000, Cores: k + 1, PhaseNs: 700}
			if a, b := simulate.Run(c, p, k, someModel), simulate.Run(c, p, k, spare); !reflect.DeepEqual(a, b) {
				t.Errorf("%s, %d workers: with a neighbour on a core of its own\n%+v\nwant as without\n%+v", p.Name, k, b, a)
			}
			busy := someModel
			busy.Neighbour = &simulate.Neighbour{SliceNs: 3000, Cores: 2, PhaseNs: 700}
			if a, b := simulate.Run(c, p, k, busy), simulate.Run(c, p, k, busy); !reflect.DeepEqual(a, b) {
				t.Errorf("%s, %d workers beside a neighbour: two runs differ:\n%+v\n%+v", p.Name, k, a, b)
			}
		}
	}
}

// TestPredictBeside: a prediction beside a neighbour on 2 cores leaves 1 worker as fast as
// the sequential loop, is the same when made again, and with 2 workers is slower than
// without the neighbour but no faster than the workers' 4/3 of a core allow.
func TestPredictBeside(t *testing.T) {
	c := costsOf(t, "tailheavy", 2_000)
	unit := []float64{1.5, 1.6}
	m := simulate.Machine{SpinNs: 1, StartNs: 300, ForkNs: 2000, JoinNs: 500}
	nb := simulate.Neighbour{SliceNs: 100_000, Cores: 2}
	a := simulate.PredictBeside("tailheavy", c, 1, unit, 0, m, []int{1, 2}, nb)
	if b := simulate.PredictBeside("tailheavy", c, 1, unit, 0, m, []int{1, 2}, nb); !reflect.DeepEqual(a, b) {
		t.Fatalf("two predictions differ:\n%+v\n%+v", a, b)
	}
	quiet := simulate.Predict("tailheavy", c, 1, unit, 0, m, []int{1, 2})
	seq := c.Total() * unit[0]
	for _, p := range impls.Partitioners() {
		one, _ := a.Prediction(p.Name, 1)
		two, _ := a.Prediction(p.Name, 2)
		alone, _ := quiet.Prediction(p.Name, 2)
		if one.Efficiency != 1 {
			t.Errorf("%s, 1 worker beside a neighbour: efficiency %g; want 1", p.Name, one.Efficiency)
		}
		if two.MakespanNs <= alone.MakespanNs || two.MakespanNs < seq*unit[1]/unit[0]*3/4 {
			t.Errorf("%s, 2 workers beside a neighbour: makespan %g; want above %g (without) and at least %g (4/3 of a core)", p.Name, two.MakespanNs, alone.MakespanNs, seq*unit[1]/unit[0]*3/4)
		}
		if want := seq / (2 * two.MakespanNs); two.Efficiency != want {
			t.Errorf("%s, 2 workers beside a neighbour: efficiency %g; want %g", p.Name, two.Efficiency, want)
		}
	}
}
