package casestudy

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/distrib"
)

// BenchmarkPolicy runs the fork-join case studies on a distrib.Pool under each
// distribution policy: tasks/ms as in the other benchmarks (positions for
// minimax, octants for the octree, forks for fib), and per operation the
// tasks that migrated (ran on a worker other than the one that forked
// them), the tasks moved between queues, and the idle time per worker.
//
//	go test -run '^$' -bench Policy ./casestudy/   # BenchmarkPolicy/policy=balancing/workload=fib/n=30/cutoff=10-2 ...
func BenchmarkPolicy(b *testing.B) {
	const fibN, look, particles = 30, 6, 500_000
	var mt Tracker
	Minimax(Sequential, look, &mt)
	mt.Done()
	src := Particles(particles, 1)
	var ot Tracker
	Octree(Sequential, slices.Clone(src), &ot)
	ot.Done()
	ps := make([]Particle, particles)
	for _, pol := range Policies {
		for _, wl := range []struct {
			name    string
			tasks   int64
			prepare func()
			run     func(p *distrib.Pool)
		}{
			{fmt.Sprintf("fib/n=%d/cutoff=10", fibN), int64(FibForks(fibN, 10)), nil, func(p *distrib.Pool) { FibOn(p, fibN, 10) }},
			{fmt.Sprintf("minimax/lookahead=%d", look), mt.Tasks, nil, func(p *distrib.Pool) { MinimaxOn(p, look, nil) }},
			{fmt.Sprintf("octree/particles=%d", particles), ot.Tasks, func() { copy(ps, src) }, func(p *distrib.Pool) { OctreeOn(p, ps, nil) }},
		} {
			b.Run(fmt.Sprintf("policy=%s/workload=%s", pol, wl.name), func(b *testing.B) {
				b.ReportAllocs()
				p := distrib.NewPool(runtime.GOMAXPROCS(0), pol)
				defer p.Close()
				before := p.Stats()
				for b.Loop() {
					if wl.prepare != nil {
						b.StopTimer()
						wl.prepare()
						b.StartTimer()
					}
					wl.run(p)
				}
				after := p.Stats()
				s, t := before.Total(), after.Total()
				n := float64(b.N)
				b.ReportMetric(float64(wl.tasks)/(float64(b.Elapsed().Nanoseconds())/1e6/n), "tasks/ms")
				b.ReportMetric(float64(t.Migrated-s.Migrated)/n, "migrated/op")
				b.ReportMetric(float64(t.Moved-s.Moved)/n, "moved/op")
				b.ReportMetric(float64((t.Idle-s.Idle)/time.Microsecond)/n/float64(len(after.Workers)), "idle-µs/worker/op")
			})
		}
	}
}
