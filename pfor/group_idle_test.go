//go:build unix

package pfor_test

import (
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// TestIdleTaskPoolUsesNoCPU: after a burst of tasks, task workers search
// for 50 µs and then sleep: from 10 ms after the last task on, the process
// uses no CPU.
func TestIdleTaskPoolUsesNoCPU(t *testing.T) {
	for range 200 { // keep the workers busy and searching
		pfor.Run(func(w *pfor.Worker) { fibBoth(w, 18) })
		var g pfor.Group
		for range 8 {
			g.Go(func(*pfor.Worker) error { return nil })
		}
		g.Wait()
	}
	time.Sleep(10 * time.Millisecond)
	before := cpuTime(t)
	time.Sleep(150 * time.Millisecond)
	used := cpuTime(t) - before
	// 150 ms of spinning workers would be 150 ms per worker; sleeping ones
	// use none. Allow for the test binary's own runtime (GC, timers).
	if used > 10*time.Millisecond {
		searching, sleeping := pfor.TaskIdle()
		t.Errorf("process used %v of CPU in the 150 ms from 10 ms after the last task (%d searching, %d sleeping); want ~0",
			used, searching, sleeping)
	}
	t.Logf("CPU used in 150 ms of idleness: %v", used)
}
