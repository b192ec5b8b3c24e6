package benchmarks_test

import (
	"flag"
	"runtime"
	"sync"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/internal/workload"
)

var scale = flag.Float64("scale", 1, "work per benchmark operation relative to benchmarks/WORKLOADS.md, as stealbench's -scale")

// prepared is a workload instance with its sequential checksum, built once per process.
type prepared struct {
	inst  workload.Instance
	calls int
	want  uint64
}

var (
	mu        sync.Mutex
	instances = map[string]*prepared{}
)

func prepare(w workloads.Workload) *prepared {
	mu.Lock()
	defer mu.Unlock()
	if p, ok := instances[w.Name]; ok {
		return p
	}
	n, calls := w.Size(*scale, 0)
	p := &prepared{inst: w.New(n), calls: calls}
	for range calls {
		p.inst.Chunk(0, n)
	}
	p.want = p.inst.Checksum()
	instances[w.Name] = p
	return p
}

// BenchmarkLoop runs every implementation on every workload with GOMAXPROCS workers:
// BenchmarkLoop/impl=X/workload=Y. One operation is one repetition (tiny: 2000 calls, also
// reported as us/call); inputs are reset, untimed, before each, and a checksum that differs
// from the sequential run's fails the benchmark.
func BenchmarkLoop(b *testing.B) {
	workers := runtime.GOMAXPROCS(0)
	for _, im := range impls.All() {
		b.Run("impl="+im.Name, func(b *testing.B) {
			for _, w := range workloads.All() {
				if !im.Runs(w.Name) {
					continue // the query-only implementations (plinq, ...) run nothing else
				}
				b.Run("workload="+w.Name, func(b *testing.B) {
					p := prepare(w)
					if im.MaxN > 0 && p.inst.Len() > im.MaxN {
						b.Skipf("n = %d > %d", p.inst.Len(), im.MaxN)
					}
					run, stop := im.Start(workers)
					defer stop()
					b.ReportAllocs()
					for b.Loop() {
						b.StopTimer()
						p.inst.Reset()
						b.StartTimer()
						for range p.calls {
							run(p.inst)
						}
					}
					if got := p.inst.Checksum(); got != p.want {
						b.Fatalf("checksum %#x; want %#x (the sequential run's)", got, p.want)
					}
					if p.calls > 1 {
						b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*p.calls), "us/call")
					}
				})
			}
		})
	}
}
