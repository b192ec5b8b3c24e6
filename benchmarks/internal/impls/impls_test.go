package impls_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
)

// TestChecksumsMatchSequential runs every implementation on every workload at a small size
// with 1, 2 and 3 workers, twice per instance as the runner does (tiny: three calls per
// pass): each pass must leave the sequential run's checksum.
func TestChecksumsMatchSequential(t *testing.T) {
	for _, w := range workloads.All() {
		n, _ := w.Size(1e-3, 0)
		n = min(n, 3_000)
		calls := min(w.Calls, 3)
		inst := w.New(n)
		for range calls {
			inst.Chunk(0, n)
		}
		want := inst.Checksum()
		for _, im := range impls.All() {
			if !im.Runs(w.Name) {
				continue
			}
			for _, k := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("%s/%s/workers=%d", w.Name, im.Name, k), func(t *testing.T) {
					run, stop := im.Start(k)
					defer stop()
					for pass := range 2 {
						inst.Reset()
						for range calls {
							run(inst)
						}
						if got := inst.Checksum(); got != want {
							t.Fatalf("pass %d: checksum %#x; want %#x (sequential)", pass, got, want)
						}
					}
					if im.Measure == nil {
						return
					}
					inst.Reset()
					for range calls {
						s := im.Measure(inst, k)
						if len(s.Busy) != k {
							t.Fatalf("Measure: %d busy times; want one per worker (%d)", len(s.Busy), k)
						}
						if imb := s.Imbalance(); imb < 1 || imb > float64(k)+1e-9 {
							t.Fatalf("Measure: imbalance %g; want within [1, %d]", imb, k)
						}
					}
					if got := inst.Checksum(); got != want {
						t.Fatalf("Measure: checksum %#x; want %#x (sequential)", got, want)
					}
				})
			}
		}
	}
}

func TestNamesAndGroups(t *testing.T) {
	seen := map[string]bool{}
	groups := map[impls.Group]int{}
	for _, im := range impls.All() {
		if seen[im.Name] {
			t.Errorf("name %q appears twice", im.Name)
		}
		seen[im.Name] = true
		groups[im.Group]++
		if im.Group == impls.Peer && im.Module == "" {
			t.Errorf("peer %q records no module version", im.Name)
		}
	}
	if groups[impls.Baseline] != 6 || groups[impls.Stealkit] != 10 || groups[impls.Peer] != 5 {
		t.Errorf("groups %v; want 6 baselines, 10 stealkit (5 partitioners, plinq, plinq-aggregate, plinq-aggregateby, chunksdense, chunkslocal) and 5 peers", groups)
	}
	for _, p := range impls.Partitioners() {
		if got := p.New(nil).Name(); got != p.Name {
			t.Errorf("partitioner %q: Name() = %q", p.Name, got)
		}
		if got := p.New(func() int64 { return 0 }).Name(); got != p.Name {
			t.Errorf("partitioner %q with a virtual clock: Name() = %q", p.Name, got)
		}
	}
}

// TestQueryOnlyImpls checks that plinq, plinq-aggregate, plinq-aggregateby, chunksdense and chunkslocal run the query workload only, and
// refuse another workload's instance with a message naming the package.
func TestQueryOnlyImpls(t *testing.T) {
	for _, name := range []string{"plinq", "plinq-aggregate", "plinq-aggregateby", "chunksdense", "chunkslocal"} {
		im, ok := impls.ByName(name)
		if !ok {
			t.Fatalf("ByName(%q): not found", name)
		}
		if !im.Runs("query") || im.Runs("uniform") {
			t.Errorf("%s: Runs(query) = %v, Runs(uniform) = %v; want true, false", name, im.Runs("query"), im.Runs("uniform"))
		}
		w, _ := workloads.ByName("uniform")
		run, stop := im.Start(2)
		func() {
			defer stop()
			defer func() {
				if r, _ := recover().(string); !strings.HasPrefix(r, "impls: "+name+" runs only the query workload") {
					t.Errorf("%s on uniform: recovered %q; want a panic naming the package", name, r)
				}
			}()
			run(w.New(10))
		}()
	}
}

func TestImbalance(t *testing.T) {
	for _, tc := range []struct {
		busy []int
		want float64
	}{{nil, 1}, {[]int{0, 0}, 1}, {[]int{5, 5}, 1}, {[]int{6, 2}, 1.5}, {[]int{4, 0, 0, 0}, 4}} {
		var s impls.Stats
		for _, b := range tc.busy {
			s.Busy = append(s.Busy, time.Duration(b))
		}
		if got := s.Imbalance(); got != tc.want {
			t.Errorf("Stats{Busy: %v}.Imbalance() = %g; want %g", tc.busy, got, tc.want)
		}
	}
}
