//go:build !unix

package load

import "time"

// ProcessCPU reports that it cannot tell the process's CPU time on this system.
func ProcessCPU() (time.Duration, bool) { return 0, false }
