package pfor_test

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// impl is one implementation of a parallel pass over a workload instance.
// start prepares passes over inst and returns one pass, and the function
// that releases what start made; it binds inst.Chunk once, so that a pass
// allocates only what the implementation itself does.
type impl struct {
	name  string
	start func(inst workload.Instance) (run func(), stop func())
}

func noStop() {}

func partitioned(name string, p partition.Partitioner) impl {
	return impl{name, func(inst workload.Instance) (func(), func()) {
		n, chunk, opt := inst.Len(), inst.Chunk, pfor.WithPartitioner(p)
		return func() { pfor.Chunks(0, n, chunk, opt) }, noStop
	}}
}

// impls are the implementations the benchmarks compare: the baselines a user
// would otherwise write, then stealkit's partitioners.
func impls() []impl {
	return []impl{
		{"sequential", func(inst workload.Instance) (func(), func()) {
			n, chunk := inst.Len(), inst.Chunk
			return func() { chunk(0, n) }, noStop
		}},
		{"handstatic", func(inst workload.Instance) (func(), func()) { return func() { handStatic(inst) }, noStop }},
		{"spinjoin", startSpinJoin},
		{"oracle", func(inst workload.Instance) (func(), func()) {
			cuts := oracleCuts(inst)
			return func() { oracle(inst, cuts) }, noStop
		}},
		{"atomicchunk", func(inst workload.Instance) (func(), func()) { return func() { atomicChunks(inst) }, noStop }},
		partitioned("static", partition.Static()),
		partitioned("dynamic", partition.Dynamic(64)),
		partitioned("guided", partition.Guided(1)),
		partitioned("stealing", partition.Stealing()),
		{"auto", func(inst workload.Instance) (func(), func()) {
			n, chunk := inst.Len(), inst.Chunk
			return func() { pfor.Chunks(0, n, chunk) }, noStop
		}},
	}
}

// onPool names the implementations whose calls run on the package's pool.
var onPool = []string{"static", "dynamic", "guided", "stealing", "auto"}

// handStatic is the hand-written loop: one goroutine per GOMAXPROCS with a
// contiguous block each, joined with a WaitGroup.
func handStatic(inst workload.Instance) {
	n, w := inst.Len(), runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for k := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inst.Chunk(n*k/w, n*(k+1)/w)
		}()
	}
	wg.Wait()
}

// startSpinJoin starts the simplest fork-join with warm helpers: one helper
// goroutine per GOMAXPROCS beyond the first, each spinning on an atomic
// generation counter and yielding its P every spinJoinYield looks. A pass
// publishes the range by bumping the counter, runs block 0 on the caller
// and spins until every helper has counted its block done. It is the floor
// a pool's per-call path is measured against: no stealing, no nesting, no
// panics, no parking.
func startSpinJoin(inst workload.Instance) (run func(), stop func()) {
	n, chunk, w := inst.Len(), inst.Chunk, runtime.GOMAXPROCS(0)
	var gen, done atomic.Uint64
	var quit atomic.Bool
	var wg sync.WaitGroup
	for k := 1; k < w; k++ {
		wg.Go(func() {
			seen := uint64(0)
			for i := 1; ; i++ {
				if g := gen.Load(); g != seen { // a pass, or the end
					if quit.Load() {
						return
					}
					seen = g
					chunk(n*k/w, n*(k+1)/w)
					done.Add(1)
				} else if i%spinJoinYield == 0 {
					runtime.Gosched()
				}
			}
		})
	}
	run = func() {
		g := gen.Add(1) // publishes the pass
		chunk(0, n/w)
		for i := 1; done.Load() != g*uint64(w-1); i++ {
			if i%spinJoinYield == 0 {
				runtime.Gosched()
			}
		}
	}
	stop = func() {
		quit.Store(true)
		gen.Add(1)
		wg.Wait()
	}
	return run, stop
}

// spinJoinYield is how many looks a spinjoin goroutine takes between yields.
const spinJoinYield = 64

// oracle is what perfect balance achieves on this machine: one goroutine
// per GOMAXPROCS, each with a contiguous block of equal total cost by the
// workload's cost model (Instance.Cost), split before timing by
// oracleCuts. No scheduler can know costs in advance; the oracle shows
// how close to sequential/workers the machine itself lets a loop get.
func oracle(inst workload.Instance, cuts []int) {
	var wg sync.WaitGroup
	for k := range len(cuts) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inst.Chunk(cuts[k], cuts[k+1])
		}()
	}
	wg.Wait()
}

// oracleCuts returns the block bounds of oracle over inst.
func oracleCuts(inst workload.Instance) []int {
	n, w := inst.Len(), runtime.GOMAXPROCS(0)
	var total float64
	for i := range n {
		total += inst.Cost(i)
	}
	cuts := []int{0}
	var sum float64
	for i := range n {
		sum += inst.Cost(i)
		if len(cuts) < w && sum >= total*float64(len(cuts))/float64(w) {
			cuts = append(cuts, i+1)
		}
	}
	for len(cuts) <= w {
		cuts = append(cuts, n)
	}
	return cuts
}

// atomicChunks: goroutines take chunks of 64 items from an atomic counter.
func atomicChunks(inst workload.Instance) {
	n, w := inst.Len(), runtime.GOMAXPROCS(0)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(64)) - 64
				if lo >= n {
					return
				}
				inst.Chunk(lo, min(lo+64, n))
			}
		}()
	}
	wg.Wait()
}

// benchWorkloads are BenchmarkRange's workloads: the seven of benchmarks/WORKLOADS.md,
// then spmv and matmul, the sparse and the dense textbook kernels: cheap
// enough to run with the others (a sequential run of either, and building
// spmv, take a fraction of mandelbrot's sequential run). The query workload
// is left to the benchmark module, where plinq runs it beside these loops.
func benchWorkloads() []workload.Workload {
	ws := workload.All()
	for _, name := range []string{"spmv", "matmul"} {
		w, _ := workload.ByName(name)
		ws = append(ws, w)
	}
	return ws
}

// BenchmarkRange runs every workload of benchWorkloads with every
// implementation: BenchmarkRange/partitioner=X/workload=Y. For "tiny" one op
// is 2000 back-to-back calls and us/call is reported, and for auto also
// late/call: the share of calls that started while the pool was in its late
// state (pfor's late.go), which run on the caller alone at first, the
// whole of a tiny call; for every implementation on the pool, asleep/call:
// the share of calls that started with a pool worker asleep, which the
// call's post then wakes. Each op starts from reset inputs (untimed); a wrong
// checksum fails the benchmark.
func BenchmarkRange(b *testing.B) {
	for _, im := range impls() {
		for _, w := range benchWorkloads() {
			b.Run("partitioner="+im.name+"/workload="+w.Name, func(b *testing.B) {
				inst := w.New(0)
				seq := w.New(0)
				for range w.Calls {
					seq.Chunk(0, seq.Len())
				}
				want := seq.Checksum()
				run, stop := im.start(inst)
				defer stop()
				countLate := im.name == "auto" && w.Calls > 1
				countAsleep := slices.Contains(onPool, im.name) && w.Calls > 1
				late, asleep := 0, 0 // calls started in the pool's late state, with a worker asleep
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					inst.Reset()
					b.StartTimer()
					for range w.Calls {
						if countLate && pfor.IsLate() {
							late++
						}
						if countAsleep && pfor.Asleep() {
							asleep++
						}
						run()
					}
				}
				if got := inst.Checksum(); got != want {
					b.Fatalf("checksum %x; want %x (the sequential run's)", got, want)
				}
				if w.Calls > 1 {
					b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*w.Calls), "us/call")
				}
				if countLate {
					b.ReportMetric(float64(late)/float64(b.N*w.Calls), "late/call")
				}
				if countAsleep {
					b.ReportMetric(float64(asleep)/float64(b.N*w.Calls), "asleep/call")
				}
			})
		}
	}
}

// BenchmarkOverhead measures scheduling cost on saxpy written as a user
// would: api=chunks gets whole ranges, api=range a closure per index; with
// body=empty only the cost of scheduling remains. ns/item is wall time per
// index (2 workers share the items).
func BenchmarkOverhead(b *testing.B) {
	const n = 1 << 24
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i%1000) * 0.001
	}
	for _, tc := range []struct {
		name string
		run  func()
	}{
		{"api=sequential", func() {
			for i := range y {
				y[i] = 2.5*x[i] + y[i]
			}
		}},
		{"api=chunks", func() {
			pfor.Chunks(0, n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					y[i] = 2.5*x[i] + y[i]
				}
			})
		}},
		{"api=range", func() {
			pfor.Range(0, n, func(i int) { y[i] = 2.5*x[i] + y[i] })
		}},
		// Empty bodies: what is left is the cost of scheduling alone.
		{"api=chunks/body=empty", func() { pfor.Chunks(0, n, func(lo, hi int) {}) }},
		{"api=range/body=empty", func() { pfor.Range(0, n, func(i int) {}) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tc.run()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/item")
		})
	}
}

// BenchmarkCallAfterIdle times one 2-worker call on saxpy's 2^20 items after
// the pool has been idle for 11 ms: its helpers have parked, so the call pays
// a helper's wake-up, as a loop called now and then does.
// impl=goroutines is the hand-written loop, which starts its goroutines anew.
func BenchmarkCallAfterIdle(b *testing.B) {
	w, _ := workload.ByName("saxpy")
	inst := w.New(1 << 20)
	n := inst.Len()
	for _, tc := range []struct {
		name string
		run  func()
	}{
		{"impl=static", func() {
			pfor.Chunks(0, n, inst.Chunk, pfor.WithWorkers(2), pfor.WithPartitioner(partition.Static()))
		}},
		{"impl=auto", func() { pfor.Chunks(0, n, inst.Chunk, pfor.WithWorkers(2)) }},
		{"impl=goroutines", func() {
			var wg sync.WaitGroup
			for k := range 2 {
				wg.Go(func() { inst.Chunk(n*k/2, n*(k+1)/2) })
			}
			wg.Wait()
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				time.Sleep(11 * time.Millisecond)
				b.StartTimer()
				tc.run()
			}
		})
	}
}

// BenchmarkCall times a call over 1,000 items with an empty body on 2
// workers, called back to back: what the pool and the partitioner cost a
// call, with nothing to run. One op is one call, so allocs/op is per call.
func BenchmarkCall(b *testing.B) {
	body := func(lo, hi int) {}
	for _, p := range []partition.Partitioner{
		partition.Static(), partition.Dynamic(64), partition.Guided(1), partition.Stealing(), partition.Auto(),
	} {
		b.Run("partitioner="+p.Name()+"/body=empty", func(b *testing.B) {
			opts := []pfor.Option{pfor.WithWorkers(2), pfor.WithPartitioner(p)}
			b.ReportAllocs()
			for b.Loop() {
				pfor.Chunks(0, 1000, body, opts...)
			}
		})
	}
}
