package impls

import (
	"sync"

	"github.com/stealkit/stealkit/internal/workload"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// queryImpls returns the implementations that run the query workload's query their own way,
// over its table of orders, instead of its Chunk over blocks (which every loop runs):
//
//   - plinq: the query as a plinq (or PLINQ) user first writes it, From(orders).Where(
//     Order.Selected), grouped by region with GroupBy, each group summed by a Select: it runs
//     as several parallel loops (filter and collect, number the keys, place the elements group
//     by group, sum), and materializes the selected orders twice;
//   - plinq-aggregate: the same filter, then plinq.Aggregate folding each of plinq's fixed
//     blocks into totals of its own (allocated by the block's first fold, from a nil
//     identity) and combining the blocks' totals in order: one fused pass;
//   - plinq-aggregateby: the same filter, then plinq.AggregateBy region, folding each
//     region's orders into its totals: one fused pass, a map operation per order, the
//     (region, totals) pairs read by ToSlice;
//   - chunksdense: the floor for a generic library, pfor.Chunks over the orders folding each
//     chunk into totals of its own, indexed by region, calling the filter, the key and the
//     fold through func values as plinq does, the chunks' totals added up under a mutex;
//   - chunkslocal: the loop a pfor user writes, pfor.ChunksLocal over the orders with
//     per-worker totals (workload.AddOrders) added up in finish: one pass, no allocation per
//     order.
//
// All hand their totals to QueryInstance.SetTotals, so the runner checks them against the
// sequential run's.
func queryImpls() []Impl {
	return []Impl{
		{
			Name: "plinq", Group: Stealkit, Workload: "query",
			About: "plinq: From(orders).Where, GroupBy region, Select summing each group (query only)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("plinq", workers)
				return func(inst workload.Instance) { plinqQuery(asQuery("plinq", inst), workers) }, noStop
			},
		},
		{
			Name: "plinq-aggregate", Group: Stealkit, Workload: "query",
			About: "plinq: From(orders).Where, then Aggregate into per-block totals (query only)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("plinq-aggregate", workers)
				return func(inst workload.Instance) { plinqAggregate(asQuery("plinq-aggregate", inst), workers) }, noStop
			},
		},
		{
			Name: "plinq-aggregateby", Group: Stealkit, Workload: "query",
			About: "plinq: From(orders).Where, then AggregateBy region (query only)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("plinq-aggregateby", workers)
				return func(inst workload.Instance) { plinqAggregateBy(asQuery("plinq-aggregateby", inst), workers) }, noStop
			},
		},
		{
			Name: "chunksdense", Group: Stealkit, Workload: "query",
			About: "pfor.Chunks over the orders, per-chunk totals by region through func values (query only)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("chunksdense", workers)
				return func(inst workload.Instance) { chunksDenseQuery(asQuery("chunksdense", inst), workers) }, noStop
			},
		},
		{
			Name: "chunkslocal", Group: Stealkit, Workload: "query",
			About: "pfor.ChunksLocal over the orders, per-worker totals added up in finish (query only)",
			Start: func(workers int) (func(workload.Instance), func()) {
				mustPositive("chunkslocal", workers)
				return func(inst workload.Instance) { chunksLocalQuery(asQuery("chunkslocal", inst), workers) }, noStop
			},
		},
	}
}

// asQuery returns inst as the query workload's instance; it panics if it is another workload.
func asQuery(impl string, inst workload.Instance) *workload.QueryInstance {
	q, ok := inst.(*workload.QueryInstance)
	if !ok {
		panic("impls: " + impl + " runs only the query workload, not " + describeInstance(inst))
	}
	return q
}

func plinqQuery(q *workload.QueryInstance, workers int) {
	selected := plinq.From(q.Orders()).Where(workload.Order.Selected).With(pfor.WithWorkers(workers))
	byRegion := plinq.GroupBy(selected, func(o workload.Order) uint16 { return o.Region })
	type regionTotal struct {
		region uint16
		total  workload.RegionTotal
	}
	sums, err := plinq.Select(byRegion, func(g plinq.Group[uint16, workload.Order]) regionTotal {
		t := regionTotal{region: g.Key, total: workload.RegionTotal{Orders: int64(len(g.Items))}}
		for _, o := range g.Items {
			t.total.Revenue += o.Revenue()
		}
		return t
	}).ToSlice()
	noQueryError("plinq", err)
	var totals [workload.QueryRegions]workload.RegionTotal
	for _, s := range sums {
		totals[s.region] = s.total
	}
	q.SetTotals(&totals)
}

// totals is the query's result, or a part of it.
type totals = [workload.QueryRegions]workload.RegionTotal

func plinqAggregate(q *workload.QueryInstance, workers int) {
	selected := plinq.From(q.Orders()).Where(workload.Order.Selected).With(pfor.WithWorkers(workers))
	// The identity is nil: each block's first fold allocates the block's own totals, which
	// the later folds and the in-order combines then update in place (a block's totals are
	// reachable from that block's fold and the combines only).
	sum, err := plinq.Aggregate(selected, (*totals)(nil),
		func(t *totals, o workload.Order) *totals {
			if t == nil {
				t = new(totals)
			}
			r := &t[o.Region%workload.QueryRegions]
			r.Orders++
			r.Revenue += o.Revenue()
			return t
		},
		func(a, b *totals) *totals {
			if a == nil {
				return b
			}
			if b != nil {
				for r := range a {
					a[r].Orders += b[r].Orders
					a[r].Revenue += b[r].Revenue
				}
			}
			return a
		})
	noQueryError("plinq-aggregate", err)
	if sum == nil {
		sum = new(totals)
	}
	q.SetTotals(sum)
}

// The query's functions for plinq-aggregateby and chunksdense, in variables so that both call
// them through func values.
var (
	selectedFn  = workload.Order.Selected
	regionFn    = workload.RegionOf
	addOrderFn  = workload.AddOrder
	addTotalsFn = workload.AddTotals
)

func plinqAggregateBy(q *workload.QueryInstance, workers int) {
	selected := plinq.From(q.Orders()).Where(selectedFn).With(pfor.WithWorkers(workers))
	byRegion, err := plinq.AggregateBy(selected, regionFn, workload.RegionTotal{}, addOrderFn, addTotalsFn).ToSlice()
	noQueryError("plinq-aggregateby", err)
	var totals totals
	for _, kv := range byRegion {
		totals[kv.Key] = kv.Value
	}
	q.SetTotals(&totals)
}

// noQueryError panics if a plinq query failed: the queries here have no
// context and no function that returns an error, so none can.
func noQueryError(impl string, err error) {
	if err != nil {
		panic("impls: " + impl + ": the query failed: " + err.Error())
	}
}

func chunksDenseQuery(q *workload.QueryInstance, workers int) {
	orders := q.Orders()
	var mu sync.Mutex
	var sum totals
	pfor.Chunks(0, len(orders), func(lo, hi int) {
		var t totals
		for _, o := range orders[lo:hi] {
			if selectedFn(o) {
				r := &t[regionFn(o)%workload.QueryRegions]
				*r = addOrderFn(*r, o)
			}
		}
		mu.Lock()
		for r := range sum {
			sum[r] = addTotalsFn(sum[r], t[r])
		}
		mu.Unlock()
	}, pfor.WithWorkers(workers))
	q.SetTotals(&sum)
}

func chunksLocalQuery(q *workload.QueryInstance, workers int) {
	orders := q.Orders()
	var totals [workload.QueryRegions]workload.RegionTotal
	pfor.ChunksLocal(0, len(orders),
		func() *[workload.QueryRegions]workload.RegionTotal {
			return new([workload.QueryRegions]workload.RegionTotal)
		},
		func(t *[workload.QueryRegions]workload.RegionTotal, lo, hi int) { workload.AddOrders(t, orders[lo:hi]) },
		func(t *[workload.QueryRegions]workload.RegionTotal) {
			for r := range totals {
				totals[r].Orders += t[r].Orders
				totals[r].Revenue += t[r].Revenue
			}
		},
		pfor.WithWorkers(workers))
	q.SetTotals(&totals)
}
