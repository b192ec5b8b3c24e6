package pfor_test

import "testing"

// retryAbove runs count up to attempts times, until one run's count is at
// most bound, logging each run over it, and returns the counts of the runs
// over it: attempts of them if every run was. Tests whose bound the
// operating system can exceed by taking a thread off its core for a moment
// fail only when every run exceeds it, which a mutant that ignores what
// the bound checks does every time.
func retryAbove(t *testing.T, attempts int, bound int64, what string, count func() int64) []int64 {
	t.Helper()
	var over []int64
	for range attempts {
		n := count()
		if n <= bound {
			break
		}
		t.Logf("%d %s; want at most %d: retrying", n, what, bound)
		over = append(over, n)
	}
	return over
}
