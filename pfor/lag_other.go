//go:build !unix

package pfor

// involuntarySwitches reports that the count is not available here.
func involuntarySwitches() (int64, bool) { return 0, false }
