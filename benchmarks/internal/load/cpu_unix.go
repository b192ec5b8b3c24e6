//go:build unix

package load

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time this process's threads have used so far (user and system,
// children excluded), and whether it could tell. getrusage accounts it finely, unlike /proc's
// 10 ms steps, so that the difference over one repetition of a few milliseconds means
// something.
func ProcessCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
