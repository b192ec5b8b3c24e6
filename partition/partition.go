// Package partition hands out the index ranges of a parallel loop to its
// workers.
//
// A Partitioner is a strategy; Start begins one run over [lo, hi) for a fixed
// number of workers, and each worker w calls the run's Next(w) until it
// reports ok == false. Over every run, each index in [lo, hi) is handed out
// exactly once, whatever the number of workers and however their calls
// interleave. Next(w) may be called concurrently for different w, but calls
// for one w must not overlap (one goroutine at a time drives a worker).
// A single goroutine may also drive every worker of a run, in any order; the
// runs of every partitioner but Auto, whose batches follow the clock, are
// deterministic then (victim choice comes from a seeded source).
//
// The strategies:
//
//   - Static: one contiguous block per worker, decided up front. No
//     coordination at all; poor when the cost of items is uneven.
//   - Dynamic(chunk): a shared atomic cursor hands out chunks of a fixed size.
//   - Guided(min): a shared cursor hands out chunks of remaining/(2*workers),
//     never fewer than min items, so chunks shrink towards the end.
//   - Stealing: each worker starts with its static block in a
//     stealrange.Range and takes batches from it; an idle worker steals the
//     top quarter of a random victim's remaining items and owns them in turn.
//     Batches scale with the call: a worker takes each range it comes to
//     own (its block, a stolen chunk, what is left of its range after it
//     gives part of a batch back) in batches of 1/workers of that range, so
//     that a short call is a few takes per worker and a long one no more,
//     while the batches shrink with the ranges that thieves move.
//   - Auto: the default. Stealing with batches that adapt to the measured
//     cost of items (see Auto).
//
// Which to choose: Auto, which starts each worker on its static block as
// Static does and balances uneven or unknown costs by stealing, unless
// every item costs the same and each worker must get exactly its one
// contiguous block, with no coordination between workers: then Static.
//
// A loop uses one through pfor's option, and a query through With:
//
//	pfor.Range(0, n, body, pfor.WithPartitioner(partition.Static()))
//	plinq.From(xs).With(pfor.WithPartitioner(partition.Static()))
//
// pfor.WithStats tells which partitioner a call used and how balanced it
// ran.
package partition

// A Partitioner decides how the indices of a parallel loop are divided among
// its workers.
type Partitioner interface {
	// Name is a short lower-case name: "static", "dynamic", "guided",
	// "stealing", "auto".
	Name() string
	// Start begins one run over [lo, hi) for workers 0..workers-1. It panics
	// if hi < lo or workers < 1. A Partitioner holds no state of its own:
	// Start may be called concurrently, and any number of runs of one
	// Partitioner may be in progress at once.
	Start(lo, hi, workers int) Run
}

// A Run is one partitioning of an index range among workers.
type Run interface {
	// Next returns worker w's next contiguous range [lo, hi), never empty.
	// ok == false: w may stop; the other workers, each calling Next until
	// it reports ok == false too, get every index left. Next may be called
	// again after that: Static's, Dynamic's and Guided's runs keep
	// reporting ok == false, but a stealing run's may return a range it can
	// steal by then. w must be in [0, workers) of the Start that made the
	// run: the runs of this package panic otherwise, with a message naming
	// the package, the partitioner, its workers and w.
	Next(w int) (lo, hi int, ok bool)
}

// A Grained partitioner can be set to a fixed grain: the number of items a
// worker takes at a time. pfor's WithGrain uses it.
type Grained interface {
	Partitioner
	// WithGrain returns a copy that takes grain items at a time.
	WithGrain(grain int) Partitioner
}
