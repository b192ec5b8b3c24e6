// Package partproto is the protocol between package partition's
// work-stealing runs and the code that drives them: pfor's jobs, and the
// benchmarks' simulator and timelines. A user who writes a
// partition.Partitioner needs none of it; a driver that finds these
// interfaces on a run can split ranges on demand, report steals and reuse
// the run.
//
// The methods of a run for worker w may be called whenever Next(w) is not
// running, from the goroutine that drives w.
package partproto

import "sync/atomic"

// Counts are a worker's stealing statistics in one run.
type Counts struct {
	Steals       int64 // successful steals
	FailedSteals int64 // steal attempts that found nothing or lost a race
}

// A StealingRun is a partition.Run whose workers steal from each other.
type StealingRun interface {
	// Next is partition.Run's Next: worker w's next range, never empty,
	// or ok == false when w finds none.
	Next(w int) (lo, hi int, ok bool)
	// Counts reports worker w's steals so far.
	Counts(w int) Counts
	// Stolen reports whether the range Next(w) returned last came from a
	// steal (directly or from a chunk w stole earlier) rather than from w's
	// static block.
	Stolen(w int) bool
}

// A SplittingRun is a StealingRun whose workers can split the range they
// are processing on demand: a worker that finds nothing to steal calls Idle
// and, while it reports true, polls Next again; a worker processes each
// range in pieces of Piece items and, between pieces, gives back the
// unprocessed rest with GiveBack when Hungry says so, where the idle worker
// can steal it. This bounds the imbalance a range can cause when its items
// turn out far dearer than the items before it.
type SplittingRun interface {
	StealingRun
	// Piece returns how many items of the range Next(w) returned last w
	// should process between two calls of Hungry (at least 1).
	Piece(w int) int
	// Hungry reports whether w should give back the rest of its range now,
	// [next, hi) of the range [lo, hi) that Next(w) returned last (lo < next
	// < hi): some worker is waiting for work or has stolen from w's range,
	// and w has held its range for long.
	Hungry(w, next int) bool
	// Quiet lets w's driver skip the calls of Hungry that would report
	// false and change nothing, most of them where no worker waits and
	// none steals. It returns a word of the run and the value it held
	// when Next(w) last returned a range: while the word still holds at,
	// Hungry(w, next) with next more than Piece(w) items below the range's
	// end reports false and changes nothing. A nil word means none may be
	// skipped. O(1), no writes.
	Quiet(w int) (word *atomic.Uint64, at uint64)
	// GiveBack hands back [from, hi) of the range [lo, hi) that Next(w)
	// returned last, none of which w has processed (lo <= from <= hi).
	GiveBack(w, from int)
	// Idle is called by worker w after Next(w) reported no work. It reports
	// whether w should call Next again, because another worker holds a range
	// it may give part of back; w counts as waiting until its Next returns
	// work or Idle returns false. A single goroutine that drives every worker
	// must not wait on Idle: it would wait for itself.
	Idle(w int) bool
}

// A Releaser is a run that can be reused by a later Start of its
// partitioner. Its driver calls Release once, after every worker's last
// call has returned, and uses the run no more.
type Releaser interface {
	Release()
}

// An Adaptive partitioner sizes its runs' batches from the measured cost of
// items, with no promise made about them to the caller.
type Adaptive interface {
	// Adapts reports whether the partitioner's batches are its own to size.
	Adapts() bool
}

// Options configure a work-stealing partitioner beyond what
// partition.StealingOptions offers users.
type Options struct {
	Grain    int  // as partition.StealingOptions.Grain
	Adaptive bool // as partition.StealingOptions.Adaptive
	// Seed seeds victim choice. Runs started with the same seed and driven
	// in the same order hand out the same ranges.
	Seed uint64
	// Clock returns monotonic nanoseconds, which workers read to size
	// adaptive batches and pieces and to tell how long a worker has held its
	// range; nil uses the process's monotonic clock. A simulator passes its
	// virtual time.
	Clock func() int64
}

// Stealing returns package partition's work-stealing partitioner configured
// by o; its result is a partition.Partitioner, which this package cannot
// name without importing partition. partition sets it when it is
// initialized. It panics if o.Grain < 0.
var Stealing func(o Options) any
