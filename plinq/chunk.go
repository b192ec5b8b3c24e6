package plinq

import "fmt"

// Chunk returns the query of consecutive batches of n of q's elements, in
// query order, as slices.Chunk yields them: every batch has n elements
// except the last, which may have fewer. q is first collected into a slice
// made by the run (copied in parallel if q is a slice, which the batches
// thus never alias); the batches are subslices of it, each capped at its
// length, so appending to one copies it. Chunk of an empty query is empty.
// Chunk panics if n < 1.
func Chunk[T any](q Query[T], n int) Query[[]T] {
	if n < 1 {
		panic(fmt.Sprintf("plinq: Chunk(%d): size must be at least 1", n))
	}
	return derive(q, func(x *exec) flow[[]T] {
		in := q.flow(x)
		var s []T
		if in.owned || !in.indexed {
			s = collect(x, in, true)
		} else {
			s = collectIndexed(x, in, 0, in.n)
		}
		batches := len(s) / n // len(s)+n-1 would overflow for n near math.MaxInt
		if len(s)%n != 0 {
			batches++
		}
		return generate(batches, func(buf [][]T, lo int) {
			for k := range buf {
				a := (lo + k) * n
				e := min(a+n, len(s))
				buf[k] = s[a:e:e]
			}
		})
	})
}
