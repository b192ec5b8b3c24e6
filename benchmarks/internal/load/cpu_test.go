package load_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/load"
)

// TestProcessCPU: on a Unix system, ProcessCPU tells, grows by about what a busy loop on one
// goroutine burns (not more than its wall time, and not nothing), and does not grow by a
// sleep's length while the process sleeps.
func TestProcessCPU(t *testing.T) {
	a, ok := load.ProcessCPU()
	if ok != (runtime.GOOS != "windows" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" && runtime.GOOS != "plan9") {
		t.Fatalf("ProcessCPU on %s: ok %v", runtime.GOOS, ok)
	}
	if !ok {
		return
	}
	start := time.Now()
	x := 1.0
	for time.Since(start) < 100*time.Millisecond {
		for range 1000 {
			x = x*0.999 + 1
		}
	}
	wall := time.Since(start)
	b, _ := load.ProcessCPU()
	if d := b - a; d <= 0 || d > wall*3/2 {
		t.Errorf("ProcessCPU grew by %v over %v of one goroutine's busy loop; want more than 0, at most about %v", d, wall, wall)
	}
	time.Sleep(200 * time.Millisecond)
	c, _ := load.ProcessCPU()
	if d := c - b; d > 100*time.Millisecond {
		t.Errorf("ProcessCPU grew by %v over a 200 ms sleep; want far less", d)
	}
	sink = x
}

var sink float64
