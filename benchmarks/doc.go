// Package benchmarks is stealkit's comparison module: a separate Go module, so that the peer
// libraries it compares stealkit with never enter the library's dependency graph.
//
// The runner is cmd/stealbench (see README.md). This package holds the same comparison as Go
// benchmarks, named for benchstat:
//
//	go test -run '^$' -bench . -count 10 > new.txt     # BenchmarkLoop/impl=auto/workload=tailheavy-2 ...
//	benchstat old.txt new.txt
//
// The benchmarks use the sizes of benchmarks/WORKLOADS.md; -scale (for example -scale 0.1)
// shrinks the work per operation as stealbench's -scale does. The worker count is GOMAXPROCS,
// so -cpu 1,2,4 varies it and benchstat sees it in the name's suffix.
package benchmarks
