// Package casestudy reproduces, on the CPU, the comparison of the chapter
// "Dynamic Load Balancing Using Work-Stealing" (Daniel Cederman and
// Philippas Tsigas, GPU Computing Gems Jade Edition, 2011): a four-in-a-row
// minimax search and an octree partitioning, each run with
//
//   - static: the chapter's static scheme, level by level, with an input
//     array and an output array whose slots tasks claim with an atomic add
//     (static.go);
//   - steal: stealkit's work-stealing task pool, every task forked with
//     pfor.Both, which its parent takes back and runs inline unless an idle
//     worker stole it (the Cilk and rayon join);
//   - group: the same pool, every task spawned with pfor.Worker.Go into one
//     pfor.Group, passing results up by continuation as the goroutine
//     scheme does;
//   - goroutine: a goroutine per task, joined with one sync.WaitGroup;
//
// against a sequential reference, measuring tasks per millisecond and the
// peak number of tasks stored (see Tracker). It also holds two
// fine-grained benchmarks of the task pool: fib, forking every call above a
// cutoff (steal against goroutine per fork, the same cutoff in both), and
// a merge sort of int64s against slices.Sort. Finally it runs the
// fork-join schemes of fib, minimax and the octree on a pool of their own
// (benchmarks/internal/distrib) under each of three distribution policies,
// work stealing, work dealing and work balancing, counting migrations,
// moves and idle time per worker (policy.go).
//
// The command cmd/casestudy prints the comparison as the chapter's tables;
// the testing.B benchmarks here measure the same runs for benchstat:
//
//	go test -run '^$' -bench . ./casestudy/   # BenchmarkMinimax/scheme=steal/lookahead=7-2 ...
package casestudy
