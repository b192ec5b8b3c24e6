// Package stealrange provides Range, a lock-free work-stealing range of integer
// indices: the primitive under stealkit's stealing partitioners.
//
// A Range holds [lo, hi). Its owner takes indices from the low end, one at a
// time (TryTakeOne) or in batches (TryTake), and any number of thieves take
// about a quarter of what is left from the high end (TrySteal), without
// locks. Every index is handed out exactly once.
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
// The protocol, its invariants and each operation's linearization point
// are stated in a comment in range.go. The package's tests check them
// through every interleaving of small scenarios, against a model over far
// larger ones, by fuzzing and under -race; README.md summarises them.
package stealrange
