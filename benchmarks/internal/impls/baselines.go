package impls

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/workload"
)

// AtomicChunk is the number of items the atomicchunk baseline takes at a time, as in the
// library's BenchmarkRange.
const AtomicChunk = 64

// GoroutinesMaxN is the largest n the goroutine-per-item baseline runs on.
const GoroutinesMaxN = 1 << 17

func baselines() []Impl {
	return []Impl{
		{
			Name: "sequential", Group: Baseline, About: "one Chunk(0, n) on the calling goroutine",
			Start: func(int) (func(workload.Instance), func()) {
				return func(inst workload.Instance) { inst.Chunk(0, inst.Len()) }, noStop
			},
		},
		{
			Name: "goroutines", Group: Baseline, MaxN: GoroutinesMaxN, AnyWorkers: true,
			About: "a goroutine per item, joined with a WaitGroup (n <= 131072 only)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("goroutines", workers)
				return goroutinePerItem, noStop
			},
		},
		{
			Name: "handstatic", Group: Baseline,
			About: "one goroutine per worker with a contiguous block each, joined with a WaitGroup",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("handstatic", workers)
				return func(inst workload.Instance) { handStatic(inst, workers, nil) }, noStop
			},
			Measure: func(inst workload.Instance, workers int) Stats {
				s := Stats{Busy: make([]time.Duration, workers)}
				handStatic(inst, workers, s.Busy)
				return s
			},
		},
		{
			Name: "spinjoin", Group: Baseline,
			About: "one block per worker; workers-1 warm helper goroutines spin on an atomic generation counter, yielding now and then; the caller runs block 0 and spins on a done counter",
			Start: startSpinJoin,
		},
		{
			Name: "atomicitem", Group: Baseline,
			About: "one goroutine per worker taking one item at a time from an atomic counter",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("atomicitem", workers)
				return func(inst workload.Instance) { atomicCounter(inst, workers, 1, nil) }, noStop
			},
			Measure: func(inst workload.Instance, workers int) Stats {
				s := Stats{Busy: make([]time.Duration, workers)}
				atomicCounter(inst, workers, 1, s.Busy)
				return s
			},
		},
		{
			Name: "atomicchunk", Group: Baseline,
			About: "one goroutine per worker taking 64 items at a time from an atomic counter",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("atomicchunk", workers)
				return func(inst workload.Instance) { atomicCounter(inst, workers, AtomicChunk, nil) }, noStop
			},
			Measure: func(inst workload.Instance, workers int) Stats {
				s := Stats{Busy: make([]time.Duration, workers)}
				atomicCounter(inst, workers, AtomicChunk, s.Busy)
				return s
			},
		},
	}
}

func goroutinePerItem(inst workload.Instance) {
	var wg sync.WaitGroup
	for i := range inst.Len() {
		wg.Go(func() { inst.Item(i) })
	}
	wg.Wait()
}

// handStatic runs worker k's block [n*k/w, n*(k+1)/w) on goroutine k. If busy is not nil,
// busy[k] receives the time worker k spent in its block.
func handStatic(inst workload.Instance, workers int, busy []time.Duration) {
	n := inst.Len()
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() {
			lo, hi := span(n, k, workers)
			if busy == nil {
				inst.Chunk(lo, hi)
				return
			}
			t0 := time.Now()
			inst.Chunk(lo, hi)
			busy[k] = time.Since(t0)
		})
	}
	wg.Wait()
}

// atomicCounter runs workers goroutines that take chunk items at a time from a shared atomic
// counter. If busy is not nil, busy[k] receives the time goroutine k spent in the body.
func atomicCounter(inst workload.Instance, workers, chunk int, busy []time.Duration) {
	n := int64(inst.Len())
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() {
			var spent time.Duration
			for {
				lo := next.Add(int64(chunk)) - int64(chunk) // claims [lo, lo+chunk)
				if lo >= n {
					break
				}
				hi := min(lo+int64(chunk), n)
				if busy == nil {
					inst.Chunk(int(lo), int(hi))
					continue
				}
				t0 := time.Now()
				inst.Chunk(int(lo), int(hi))
				spent += time.Since(t0)
			}
			if busy != nil {
				busy[k] = spent
			}
		})
	}
	wg.Wait()
}
