package textbook

import (
	"sync"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// The variants of Mul.
const (
	MulSeq       = "seq"       // the sequential loop over rows
	MulCell      = "cell"      // a goroutine per output cell, joined with a sync.WaitGroup
	MulRowTask   = "rowtask"   // a pfor.Group task per row, submitted from outside the pool
	MulRowFuture = "rowfuture" // a future per row, spawned from a pool task and got in order
)

// MulVariants lists the parallel variants of Mul, the pfor.Range ones
// named "range-" and their partitioner.
var MulVariants = []string{MulCell, MulRowTask, MulRowFuture,
	"range-static", "range-dynamic1", "range-guided1", "range-stealing", "range-auto"}

// rangePartitioners are the partitioners of the "range-" variants: rows
// are the items, and Dynamic and Guided take one row at a time (a row of a
// 128 x 128 product is some microseconds of work, enough to pay for a
// shared cursor's atomic add).
var rangePartitioners = map[string]func() partition.Partitioner{
	"range-static":   partition.Static,
	"range-dynamic1": func() partition.Partitioner { return partition.Dynamic(1) },
	"range-guided1":  func() partition.Partitioner { return partition.Guided(1) },
	"range-stealing": partition.Stealing,
	"range-auto":     partition.Auto,
}

// Mul sets c = a × b with the named variant, given b's transpose bt: every
// cell is then the dot product of a row of a and a row of bt, both
// contiguous, in every variant alike, so that the variants differ only in
// how they divide the cells among goroutines. c, a and bt must be n x n;
// c must not share storage with a or bt. Mul panics on an unknown variant.
func Mul(variant string, c, a, bt *Matrix) {
	n := c.N
	switch variant {
	case MulSeq:
		for i := range n {
			mulRow(c, a, bt, i)
		}
	case MulCell:
		var wg sync.WaitGroup
		for i := range n {
			for j := range n {
				wg.Go(func() { c.A[i*n+j] = dot(a.Row(i), bt.Row(j)) })
			}
		}
		wg.Wait()
	case MulRowTask:
		var g pfor.Group
		for i := range n {
			g.Go(func(*pfor.Worker) error { mulRow(c, a, bt, i); return nil })
		}
		g.Wait()
	case MulRowFuture:
		pfor.Run(func(w *pfor.Worker) {
			rows := make([]*pfor.Future[struct{}], n)
			for i := range rows {
				rows[i] = pfor.Spawn(w, func(*pfor.Worker) struct{} { mulRow(c, a, bt, i); return struct{}{} })
			}
			for _, f := range rows {
				f.Get(w)
			}
		})
	default:
		p, ok := rangePartitioners[variant]
		if !ok {
			panic("textbook: Mul: unknown variant " + variant)
		}
		pfor.Range(0, n, func(i int) { mulRow(c, a, bt, i) }, pfor.WithPartitioner(p()))
	}
}

// mulRow computes row i of c = a × b, given bt.
func mulRow(c, a, bt *Matrix, i int) {
	ar := a.Row(i)
	for j := range c.Row(i) {
		c.A[i*c.N+j] = dot(ar, bt.Row(j))
	}
}

func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s float64
	for k, v := range x {
		s += v * y[k]
	}
	return s
}
