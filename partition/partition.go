// Package partition hands out the index ranges of a parallel loop to its
// workers.
//
// A Partitioner is a strategy; Start begins one run over [lo, hi) for a fixed
// number of workers, and each worker w calls the run's Next(w) until it
// reports ok == false. Over every run, each index in [lo, hi) is handed out
// exactly once, whatever the number of workers and however their calls
// interleave. Next(w) may be called concurrently for different w, but calls
// for one w must not overlap (one goroutine at a time drives a worker).
// A single goroutine may also drive every worker of a run, in any order; runs
// are deterministic then (victim choice comes from a seeded source), which
// is how a simulator replays them.
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
// Auto sizes each batch to take a fixed time at the cost per item its worker
// measured last, and pfor runs a batch in pieces, between which the worker
// hands the rest back to idle workers and to thieves that took from its
// range. Why that holds when a measurement is wrong:
//   - At scale: a piece is sized in time, so its call stays a small part of
//     it, but holds at most a small part of its worker's share of the items.
//     A batch sized from cheap items that reaches dear ones hides only the
//     piece in progress: idle workers keep looking while any worker holds
//     more than the piece in progress, try only the workers listed as
//     holding items, and the holder gives the rest back when its piece ends.
//   - Under preemption: a worker descheduled mid-batch measures its items as
//     dear; that shrinks its next batch 4x at most, the next measurement
//     restores it, and what it held while away is given back to the others
//     as soon as it runs again.
package partition

// A Partitioner decides how the indices of a parallel loop are divided among
// its workers.
type Partitioner interface {
	// Name is a short lower-case name: "static", "dynamic", "guided",
	// "stealing", "auto".
	Name() string
	// Start begins one run over [lo, hi) for workers 0..workers-1. It panics
	// if hi < lo or workers < 1.
	Start(lo, hi, workers int) Run
}

// A Run is one partitioning of an index range among workers.
type Run interface {
	// Next returns worker w's next contiguous range [lo, hi), never empty.
	// ok == false: w gets no more work in this run.
	Next(w int) (lo, hi int, ok bool)
}

// A Grained partitioner can be set to a fixed grain: the number of items a
// worker takes at a time. pfor's WithGrain uses it.
type Grained interface {
	Partitioner
	// WithGrain returns a copy that takes grain items at a time.
	WithGrain(grain int) Partitioner
}
