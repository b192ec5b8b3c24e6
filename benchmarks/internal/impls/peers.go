package impls

import (
	"sync"

	"github.com/alitto/pond/v2"
	"github.com/panjf2000/ants/v2"
	"github.com/sourcegraph/conc/iter"
	"github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"

	"github.com/stealkit/stealkit/internal/workload"
)

// PeerTasksPerWorker is how many tasks the task-pool peers (errgroup, conc-pool, pond, ants)
// get per worker: [0, n) is cut into min(n, 16·workers) nearly equal chunks, one task each.
// That is the usual way to run a loop on a pool: one task per item would cost a goroutine
// hand-off per item (too slow for saxpy's 16M items), one task per worker cannot balance
// uneven work, and a few tasks per worker balances most of it without knowing the costs. Like
// any fixed count, it cannot split a chunk that holds all the expensive items (tailheavy's
// last 2% fall into one or two chunks). conc's iter runs per item, as its API does.
const PeerTasksPerWorker = 16

func peers() []Impl {
	return []Impl{
		{
			Name: "errgroup", Group: Peer, Module: "golang.org/x/sync",
			About: "errgroup.Group with SetLimit(workers), one Go call per chunk (16 per worker)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("errgroup", workers)
				return func(inst workload.Instance) {
					var g errgroup.Group
					g.SetLimit(workers)
					eachChunk(inst, workers, func(lo, hi int) {
						g.Go(func() error { inst.Chunk(lo, hi); return nil })
					})
					_ = g.Wait() // the tasks return no error
				}, noStop
			},
		},
		{
			Name: "conc-iter", Group: Peer, Module: "github.com/sourcegraph/conc",
			About: "conc iter.Iterator{MaxGoroutines: workers}.ForEachIdx, per item",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("conc-iter", workers)
				it := iter.Iterator[struct{}]{MaxGoroutines: workers}
				return func(inst workload.Instance) {
					items := make([]struct{}, inst.Len()) // zero-size elements: allocates nothing per item
					it.ForEachIdx(items, func(i int, _ *struct{}) { inst.Item(i) })
				}, noStop
			},
		},
		{
			Name: "conc-pool", Group: Peer, Module: "github.com/sourcegraph/conc",
			About: "conc pool.New().WithMaxGoroutines(workers), one Go call per chunk (16 per worker)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("conc-pool", workers)
				return func(inst workload.Instance) {
					p := pool.New().WithMaxGoroutines(workers)
					eachChunk(inst, workers, func(lo, hi int) { p.Go(func() { inst.Chunk(lo, hi) }) })
					p.Wait()
				}, noStop
			},
		},
		{
			Name: "pond", Group: Peer, Module: "github.com/alitto/pond/v2",
			About: "a pond.NewPool(workers) kept across passes, one task group of a task per chunk (16 per worker)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("pond", workers)
				p := pond.NewPool(workers)
				return func(inst workload.Instance) {
					g := p.NewGroup()
					eachChunk(inst, workers, func(lo, hi int) { g.Submit(func() { inst.Chunk(lo, hi) }) })
					_ = g.Wait() // the tasks return no error; a panic would be re-raised by Wait
				}, p.StopAndWait
			},
		},
		{
			Name: "ants", Group: Peer, Module: "github.com/panjf2000/ants/v2",
			About: "an ants.NewPool(workers) kept across passes, a Submit per chunk (16 per worker), joined with a WaitGroup",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("ants", workers)
				p, err := ants.NewPool(workers)
				if err != nil {
					panic("impls: ants.NewPool: " + err.Error())
				}
				return func(inst workload.Instance) {
					var wg sync.WaitGroup
					eachChunk(inst, workers, func(lo, hi int) {
						wg.Add(1)
						if err := p.Submit(func() { defer wg.Done(); inst.Chunk(lo, hi) }); err != nil {
							panic("impls: ants Submit: " + err.Error()) // only on a released pool
						}
					})
					wg.Wait()
				}, p.Release
			},
		},
	}
}

// eachChunk calls submit for each of the min(n, PeerTasksPerWorker·workers) chunks of [0, n).
func eachChunk(inst workload.Instance, workers int, submit func(lo, hi int)) {
	n := inst.Len()
	parts := min(n, PeerTasksPerWorker*workers)
	for k := range parts {
		submit(span(n, k, parts))
	}
}
