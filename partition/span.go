package partition

import "fmt"

// Index arithmetic. hi-lo overflows int for ranges wider than MaxInt (for
// example [MinInt, MaxInt)), so partitioners count items as uint64 offsets
// from lo; uint64(hi)-uint64(lo) is the exact size for every lo <= hi on
// both 32- and 64-bit platforms.

func size(lo, hi int) uint64 { return uint64(hi) - uint64(lo) }

// at returns lo + off; off <= size(lo, hi) for the caller's range.
func at(lo int, off uint64) int { return int(uint64(lo) + off) }

// block returns the offsets [a, b) of worker w's static block: the first
// n%workers blocks are one item longer than the rest.
func block(n uint64, w, workers int) (a, b uint64) {
	q, r := n/uint64(workers), n%uint64(workers)
	start := func(w uint64) uint64 { return w*q + min(w, r) }
	return start(uint64(w)), start(uint64(w) + 1)
}

// checkStart panics if Start's arguments are bad, naming the partitioner
// by call, the call that made it (as "Static()").
func checkStart(call string, lo, hi, workers int) {
	if hi < lo {
		panic(fmt.Sprintf("partition: %s.Start(%d, %d, %d): hi < lo", call, lo, hi, workers))
	}
	if workers < 1 {
		panic(fmt.Sprintf("partition: %s.Start(%d, %d, %d): workers must be at least 1", call, lo, hi, workers))
	}
}

// badWorker returns the panic message for a call of a run of the
// partitioner named name, for workers workers, that got a worker w outside
// [0, workers). Runs check uint(w) >= uint(workers), one compare, and panic
// with it: as the panic is in their own code, the compiler knows that w is
// in range after the check and drops its bounds check of their per-worker
// state. noinline keeps the formatting out of their code.
//
//go:noinline
func badWorker(name string, workers int, call string, w int) string {
	return fmt.Sprintf("partition: %s run of %d workers: %s(%d): worker out of range", name, workers, call, w)
}

// checkStart is checkStart for p, which names p only if the arguments
// are bad: a good Start allocates nothing (TestRunsDoNotAllocate), and
// makes no call (see badStart).
func (p stealing) checkStart(lo, hi, workers int) {
	if hi < lo || workers < 1 {
		p.badStart(lo, hi, workers)
	}
}

// badStart panics as checkStart does, where p.checkStart found the
// arguments bad: one call, so that p.checkStart is inlined.
func (p stealing) badStart(lo, hi, workers int) { checkStart(p.call(), lo, hi, workers) }

// checkStart is checkStart for p, as stealing's.
func (p cursorPartitioner) checkStart(lo, hi, workers int) {
	if hi < lo || workers < 1 {
		checkStart(p.call(), lo, hi, workers)
	}
}

// call returns the call that makes p, for messages: "Auto()", "Stealing()",
// or StealingWith's with its options.
func (p stealing) call() string {
	switch {
	case p.o.Grain == 0 && p.o.Adaptive:
		return "Auto()"
	case p.o.Grain == 0:
		return "Stealing()"
	}
	return fmt.Sprintf("StealingWith(StealingOptions{Grain: %d, Adaptive: %t})", p.o.Grain, p.o.Adaptive)
}

// call returns the call that makes p, for messages: "Dynamic(4)".
func (p cursorPartitioner) call() string {
	if p.guided {
		return fmt.Sprintf("Guided(%d)", p.min)
	}
	return fmt.Sprintf("Dynamic(%d)", p.min)
}
