package simulate

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is Linux's CLOCK_THREAD_CPUTIME_ID: the calling thread's CPU time, to
// the nanosecond. (getrusage's RUSAGE_THREAD is not as fine on every kernel.)
const clockThreadCPUTimeID = 3

// threadCPU returns the CPU time the calling OS thread has used, and reports whether the
// platform can tell. Calibration locks its goroutines to their threads and times them by CPU
// time, so that another process taking a core from them does not count as their cost, while
// memory stalls, which happen on the CPU, do.
func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
