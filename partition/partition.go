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
// are deterministic then (victim choice comes from a seedable source), which
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
//   - Auto: the default. Stealing with batches that adapt to the measured
//     cost of items (see Auto).
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

// Counts are a worker's stealing statistics in one run.
type Counts struct {
	Steals       int64 // successful steals
	FailedSteals int64 // steal attempts that found nothing or lost a race
}

// A StealingRun is a Run whose workers steal from each other. Its methods
// may be called for worker w whenever Next(w) is not running.
type StealingRun interface {
	Run
	// Counts reports worker w's steals so far.
	Counts(w int) Counts
	// Stolen reports whether the range Next(w) returned last came from a
	// steal (directly or from a chunk w stole earlier) rather than from w's
	// static block.
	Stolen(w int) bool
}

// A SplittingRun is a StealingRun whose workers can split the range they
// are processing on demand: a worker that finds nothing to steal while
// others still hold ranges calls Idle and polls Next again, and a worker
// that sees Hungry gives back the unprocessed rest of its range with
// GiveBack, where the idle worker can steal it. This bounds the imbalance
// a batch can cause when its items turn out far more expensive than the
// items before it. The methods for worker w may be called whenever Next(w)
// is not running.
type SplittingRun interface {
	StealingRun
	// Piece returns how many items of the range Next(w) returned last w
	// should process between two calls of Hungry: a sixteenth of the range,
	// or more where that would take under 4 µs / workers at the cost per
	// item w measured so far, so that checking stays cheap where items are
	// cheap; the whole range for w's first range (at least 1 item).
	Piece(w int) int
	// Hungry reports whether w should give back the rest of its range now:
	// some worker is waiting for work, and w has been on its current range
	// for over twice the adaptive batch target (20 µs), so the range is not
	// an ordinary batch but one whose items cost more than those before it.
	Hungry(w int) bool
	// GiveBack hands back [from, hi) of the range [lo, hi) that Next(w)
	// returned last, none of which w has processed (lo <= from <= hi).
	GiveBack(w, from int)
	// Idle is called by worker w after Next(w) reported no work. It reports
	// whether w should call Next again, because another worker has held its
	// range for over twice the batch target and may give part of it back; w
	// counts as hungry until its Next returns work or Idle returns false. A single goroutine that drives
	// every worker must not wait on Idle: it would wait for itself.
	Idle(w int) bool
}

// A Grained partitioner can be set to a fixed grain: the number of items a
// worker takes at a time. pfor's WithGrain uses it.
type Grained interface {
	Partitioner
	// WithGrain returns a copy that takes grain items at a time.
	WithGrain(grain int) Partitioner
}
