package plinq

import (
	"fmt"
	"iter"
)

// From returns the query over the elements of s, in order. The query reads
// s whenever it runs and never writes to it; s must not change while a
// terminal operation runs.
func From[T any](s []T) Query[T] {
	return Query[T]{plan: func(*exec) flow[T] { return sliceFlow(s) }}
}

// Range returns the query over the integers lo, lo+1, ..., hi-1. It panics
// if hi < lo or if the range has more than math.MaxInt elements.
func Range(lo, hi int) Query[int] {
	if hi < lo {
		panic(fmt.Sprintf("plinq: Range(%d, %d): hi < lo", lo, hi))
	}
	n := hi - lo
	if n < 0 {
		panic(fmt.Sprintf("plinq: Range(%d, %d): more than MaxInt elements", lo, hi))
	}
	return Query[int]{plan: func(*exec) flow[int] {
		return generate(n, func(buf []int, i int) {
			for k := range buf {
				buf[k] = lo + i + k
			}
		})
	}}
}

// Repeat returns the query of n copies of v. It panics if n < 0.
func Repeat[T any](v T, n int) Query[T] {
	if n < 0 {
		panic(fmt.Sprintf("plinq: Repeat(%d): negative count", n))
	}
	return Query[T]{plan: func(*exec) flow[T] {
		return generate(n, func(buf []T, _ int) {
			for k := range buf {
				buf[k] = v
			}
		})
	}}
}

// Empty returns the empty query, as the zero Query is.
func Empty[T any]() Query[T] { return Query[T]{} }

// FromSeq returns the query over the values of seq, in order. A sequence is
// not indexed, so each run of the query first reads all of seq, on the
// calling goroutine, into a buffer it then works on in parallel: seq must be
// finite and, for the query to be run more than once, re-iterable. A panic
// in seq reaches the caller as a *pfor.PanicError; cancellation (see
// WithContext) is checked every 1024 values. FromSeq panics if seq is nil.
func FromSeq[T any](seq iter.Seq[T]) Query[T] {
	if seq == nil {
		panic("plinq: FromSeq(nil)")
	}
	return Query[T]{plan: func(x *exec) flow[T] {
		var buf []T
		guard(func() {
			for v := range seq {
				buf = append(buf, v)
				if len(buf)%1024 == 0 {
					x.check()
				}
			}
		})
		return ownedFlow(buf)
	}}
}
