//go:build unix

package pfor

import "syscall"

// involuntarySwitches returns the process's count of involuntary context
// switches (getrusage's ru_nivcsw, summed over its threads).
func involuntarySwitches() (int64, bool) {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0, false
	}
	return int64(r.Nivcsw), true
}
