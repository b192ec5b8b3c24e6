// Command stealbench compares stealkit's partitioners with hand-written loops and peer
// libraries on the benchmark workloads, and predicts their scaling with a simulator.
//
//	go run -C benchmarks ./cmd/stealbench            # the default comparison, under 2 minutes
//	go run -C benchmarks ./cmd/stealbench -h         # the flags
//
// See benchmarks/README.md.
package main

import (
	"os"

	"github.com/stealkit/stealkit/benchmarks/internal/cli"
	"github.com/stealkit/stealkit/benchmarks/internal/noise"
)

func main() {
	noise.MaybeBurn() // with -noise this executable is re-run as the burner
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
