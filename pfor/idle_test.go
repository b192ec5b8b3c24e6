//go:build unix

package pfor_test

import (
	"runtime"
	"sync/atomic"
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
	// Finish the garbage collection those calls may have started, so that its
	// background work (slow under the race detector, on a machine busy with
	// other test binaries) does not fall into the window, where it would count
	// against the helpers.
	runtime.GC()
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

// TestWaitingSlotSleeps: a slot with no work left, waiting for another
// whose range is held up (here the first batch of slot 0, whose first item
// sleeps 30 ms, as a holder preempted by a busy neighbour process would
// be), polls briefly and then sleeps: the call uses far less CPU than the
// 30 ms a polling slot would burn, and still returns once the holder is
// done.
func TestWaitingSlotSleeps(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	const n, hold = 1000, 30 * time.Millisecond
	for attempt := 0; ; attempt++ {
		pfor.Chunks(0, 100, func(lo, hi int) {}, pfor.WithWorkers(2)) // warm the pool
		var done atomic.Int32
		before := cpuTime(t)
		start := time.Now()
		pfor.Chunks(0, n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if i == 0 {
					time.Sleep(hold)
				}
				done.Add(1)
			}
		}, pfor.WithWorkers(2))
		wall, used := time.Since(start), cpuTime(t)-before
		if done.Load() != n {
			t.Fatalf("%d items done; want %d", done.Load(), n)
		}
		if used < hold/3 {
			t.Logf("call took %v, used %v of CPU", wall, used)
			return
		}
		if attempt == 4 { // CPU time includes whatever else the process ran
			t.Fatalf("call took %v and used %v of CPU while one slot held an item for %v; want under %v (the waiting slot should sleep)", wall, used, hold, hold/3)
		}
	}
}
