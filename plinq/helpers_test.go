package plinq_test

import (
	"iter"

	"github.com/stealkit/stealkit/plinq"
)

// must returns v, and panics with a failed if err is not nil: for running
// queries whose terminal operations the test expects to succeed.
func must[T any](v T, err error) T {
	mustDo(err)
	return v
}

// mustDo is must for a terminal operation with no other result.
func mustDo(err error) {
	if err != nil {
		panic(failed{err})
	}
}

// failed is the panic of must: terminal.try turns it back into the error.
type failed struct{ err error }

func (f failed) Error() string { return "unexpected error: " + f.err.Error() }

// values is q.Values for a query that cannot fail: it panics after the
// loop if the iteration failed.
func values[T any](q plinq.Query[T]) iter.Seq[T] {
	seq, errf := q.Values()
	return func(yield func(T) bool) {
		seq(yield)
		mustDo(errf())
	}
}

// all is q.All for a query that cannot fail, as values is.
func all[T any](q plinq.Query[T]) iter.Seq2[int, T] {
	seq, errf := q.All()
	return func(yield func(int, T) bool) {
		seq(yield)
		mustDo(errf())
	}
}
