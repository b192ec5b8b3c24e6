//go:build unix

package pfor_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestIdleHelpersUseNoCPU: helpers spin briefly after a call (so that the
// next call finds them awake) and then park: 1 ms after the last call, the
// process uses no CPU while idle.
func TestIdleHelpersUseNoCPU(t *testing.T) {
	for range 2000 { // warm: back-to-back calls keep helpers spinning
		pfor.Range(0, 1000, func(int) {}, pfor.WithWorkers(4))
	}
	time.Sleep(time.Millisecond)
	before := cpuTime(t)
	time.Sleep(200 * time.Millisecond)
	used := cpuTime(t) - before
	// 200 ms of 4 spinning helpers would be 800 ms; parked helpers use none.
	// Allow for the test binary's own runtime (GC, timers).
	if used > 20*time.Millisecond {
		t.Errorf("process used %v of CPU in the 200 ms after the last call; want helpers parked (~0)", used)
	}
}
