//go:build !linux

package simulate

import "time"

// threadCPU reports that this platform cannot tell a thread's CPU time: calibration falls
// back to wall time.
func threadCPU() (time.Duration, bool) { return 0, false }
