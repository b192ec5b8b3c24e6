package casestudy

import (
	"runtime"
	"slices"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/distrib"
)

// TestPolicyWorkloadsAgree: under every policy, at GOMAXPROCS 1, 2 and 4,
// fib, minimax and the octree give the sequential results over as many
// tasks, and MeasurePolicy's counts cover every task forked.
func TestPolicyWorkloadsAgree(t *testing.T) {
	const look, n = 4, 20_000
	var mref Tracker
	wantV := Minimax(Sequential, look, &mref)
	mref.Done()
	src := Particles(n, 1)
	ref := slices.Clone(src)
	var oref Tracker
	wantO := Octree(Sequential, ref, &oref)
	oref.Done()
	sweep(t, func(t *testing.T) {
		for _, pol := range Policies {
			p := distrib.NewPool(runtime.GOMAXPROCS(0), pol)
			if got := FibOn(p, 22, 8); got != 17711 {
				t.Errorf("%v: FibOn(22, 8) = %d; want 17711", pol, got)
			}
			var mt Tracker
			if got := MinimaxOn(p, look, &mt); got != wantV {
				t.Errorf("%v: MinimaxOn(%d) = %d; want %d", pol, look, got, wantV)
			}
			mt.Done()
			ps := slices.Clone(src)
			var ot Tracker
			got := OctreeOn(p, ps, &ot)
			ot.Done()
			if got != wantO || !slices.Equal(ps, ref) || mt.Tasks != mref.Tasks || ot.Tasks != oref.Tasks {
				t.Errorf("%v: octree %+v in %d tasks, minimax in %d; want %+v in %d, %d", pol, got, ot.Tasks, mt.Tasks, wantO, oref.Tasks, mref.Tasks)
			}
			p.Close()

			r := MeasurePolicy(pol, 3, func() {}, func(p *distrib.Pool) { FibOn(p, 20, 8) })
			if ran, _, _, _ := r.PerRun(); ran != float64(FibForks(20, 8)) {
				t.Errorf("%v: MeasurePolicy counted %v tasks per fib(20) run; want %d", pol, ran, FibForks(20, 8))
			}
		}
	})
}
