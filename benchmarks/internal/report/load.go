package report

import "github.com/stealkit/stealkit/benchmarks/internal/load"

// OtherLoad starts measuring how busy others keep the machine's CPUs, and returns the function
// that reports it: the average number of CPUs that other processes and, on a virtual machine,
// the host kept busy since the call, and the host's part of it; each -1 where that cannot be
// told. Benchmarks on a shared machine record it with their results.
func OtherLoad() func() (others, host float64) {
	a := load.Take()
	return func() (float64, float64) {
		var s load.Span
		s.Add(a, load.Take())
		return s.Cores(), s.Stolen()
	}
}
