package simulate_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// BenchmarkRestartPattern is the measurement behind the restart trial's shared cursor: saxpy
// at a quarter of its size on 2 goroutines, its 64-item chunks run in four ways. halves: one
// contiguous half each (no restarts); fixed: goroutine g the chunks g, g+2, ... (a restart per
// chunk, the goroutines free to drift apart); cursor: chunks in order from a shared atomic
// cursor (the restart trial); dynamic: pfor with partition.Dynamic(64). Compare with
//
//	go test -run '^$' -bench RestartPattern -count 10 ./internal/simulate/ | benchstat -col /pattern -
func BenchmarkRestartPattern(b *testing.B) {
	w, _ := workloads.ByName("saxpy")
	n, _ := w.Size(0.25, 0)
	inst := w.New(n)
	const chunk = 64
	chunks := (n + chunk - 1) / chunk
	run := func(j int) { inst.Chunk(j*chunk, min(n, (j+1)*chunk)) }
	two := func(f func(g int)) {
		var wg sync.WaitGroup
		for g := range 2 {
			wg.Go(func() { f(g) })
		}
		wg.Wait()
	}
	for _, pattern := range []struct {
		name string
		pass func()
	}{
		{"halves", func() { two(func(g int) { inst.Chunk(g*n/2, (g+1)*n/2) }) }},
		{"fixed", func() {
			two(func(g int) {
				for j := g; j < chunks; j += 2 {
					run(j)
				}
			})
		}},
		{"cursor", func() {
			var cursor atomic.Int64
			two(func(g int) {
				for j := int(cursor.Add(1) - 1); j < chunks; j = int(cursor.Add(1) - 1) {
					run(j)
				}
			})
		}},
		{"dynamic", func() {
			pfor.Chunks(0, n, inst.Chunk, pfor.WithWorkers(2), pfor.WithPartitioner(partition.Dynamic(chunk)))
		}},
	} {
		b.Run("pattern="+pattern.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				inst.Reset()
				b.StartTimer()
				pattern.pass()
			}
		})
	}
}
