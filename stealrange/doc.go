// Package stealrange provides Range, a lock-free work-stealing range of integer
// indices: the primitive under stealkit's stealing partitioners.
//
// A Range holds [lo, hi). Its owner takes indices from the low end, one at a
// time (TryTakeOne) or in batches (TryTake), and any number of thieves take
// about a quarter of what is left from the high end (TrySteal), without
// locks. Every index is handed out exactly once.
//
// # The protocol
//
// The indices are laid out as [low .. [mid .. end)): the owner's part is
// [low, mid) and the steal range is [mid, end), an immutable span replaced
// only by a compare-and-swap of a fresh span, so a stale thief can never win
// a CAS on a reused span (no ABA). The owner reserves a batch by publishing a
// new low and only then reads the steal range; a thief reads the steal range,
// then low, and CAS-replaces the span with the top quarter of [low, mid).
// Because Go's atomics are sequentially consistent, an owner's batch and a
// steal can meet only on the one span the owner read after reserving, and
// then the owner's own CAS decides: if it loses, the thief took exactly
// [mid, end) of that span and the owner keeps [low, mid). Reset and GiveBack
// close the range (low = MaxUint64), set the new span, and reopen it, in that
// order. Indices are mapped to uint64 positions so that the whole int domain
// works without overflow on 32- and 64-bit platforms.
//
// # Who may call what
//
// TryTakeOne, TryTake, Reset, StealFrom, Reuse, GiveBack and Remaining are
// executed only by the owner, one goroutine at a time; ownership may pass to
// another goroutine when the hand-over synchronizes (a channel send, a
// WaitGroup). TrySteal and Stealable may be executed by any goroutine,
// concurrently with everything; so may r.StealFrom(v) as far as v is
// concerned: to v it is a thief. Reuse is for Ranges no longer in use (see
// Range.Reuse). New may be called from any goroutine; bad arguments panic
// with a message naming the package and the values. The zero Range is an
// empty range, ready for use.
//
// # Where the proofs are
//
// The Range type's documentation in range.go states the state layout, the
// invariants and each operation's linearization point. The package's tests
// are the proofs: interleave_test.go drives the real code through every
// interleaving of small scenarios with a deterministic step scheduler
// (internal/stepsched), model_test.go checks a step-by-step model over far
// larger scenarios and shows that known-broken variants are caught,
// fuzz_test.go compares operation sequences with a sequential model, and
// stress_test.go runs full work-stealing loops under -race with injected
// preemption. README.md in this directory summarises them.
package stealrange
