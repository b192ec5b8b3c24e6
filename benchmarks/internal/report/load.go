package report

import "github.com/stealkit/stealkit/benchmarks/internal/load"

// OtherLoad starts measuring how busy other processes keep the machine's CPUs, and returns
// the function that reports it: the average number of CPUs they kept busy since the call, or
// -1 where that cannot be told. Benchmarks on a shared machine record it with their results.
func OtherLoad() func() float64 {
	a := load.Take()
	return func() float64 {
		var s load.Span
		s.Add(a, load.Take())
		return s.Cores()
	}
}
