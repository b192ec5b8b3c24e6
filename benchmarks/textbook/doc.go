// Package textbook holds the matrix examples of the chapter on work
// distribution in Herlihy and Shavit, "The Art of Multiprocessor
// Programming", run on stealkit: the progression from a thread per task to
// a pool of workers with futures, and on to stealkit's partitioners.
//
//   - Mul, n x n matrix multiplication: a goroutine per output cell (the
//     chapter's "what's wrong with this picture?"), a pool task per row
//     (pfor.Group from outside the pool, or a future per row spawned from
//     a task), and pfor.Range over rows with each partitioner.
//   - Add, matrix addition by recursive quadrant splitting: four futures
//     per level, joined with Get, down to blocks of a base-case size whose
//     choice the benchmarks show.
//
// Every variant computes exactly what the sequential one does: entries are
// small integers held in float64, so every product and sum is exact and
// results compare bit for bit.
//
// The command cmd/casestudy prints the comparison as tables (-only matrix);
// the testing.B benchmarks measure the same runs for benchstat:
//
//	go test -run '^$' -bench . ./textbook/   # BenchmarkMatMul/variant=cell/n=128-2 ...
package textbook
