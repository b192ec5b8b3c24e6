//go:build !linux

package pfor

// runqueueWait reports that the threads' run-queue wait is not available
// here: calls never lag (see lag.go).
func runqueueWait() (int64, bool) { return 0, false }
