package pfor_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// TestNestingDepth3: pfor inside pfor inside pfor completes, visits every
// index, and runs on the shared pool: no goroutine per nested call.
func TestNestingDepth3(t *testing.T) {
	base := goroutines(t)
	helpersBefore := pfor.Helpers()
	for _, procs := range []int{1, 2, 8} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			const n = 12
			var sum atomic.Int64
			peak := atomic.Int64{}
			done := make(chan struct{})
			go func() {
				pfor.Range(0, n, func(i int) {
					pfor.Range(0, n, func(j int) {
						pfor.Range(0, n, func(k int) {
							peak.Store(max(peak.Load(), int64(runtime.NumGoroutine())))
							sum.Add(int64(i*n*n + j*n + k))
						})
					})
				})
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("GOMAXPROCS=%d: nested pfor did not finish in 30 s (deadlock?)", procs)
			}
			if want := int64(n*n*n) * (n*n*n - 1) / 2; sum.Load() != want {
				t.Errorf("GOMAXPROCS=%d: nested sum %d; want %d", procs, sum.Load(), want)
			}
			if limit := int64(base + 2 + max(helpersBefore, procs, widestCall)); peak.Load() > limit {
				t.Errorf("GOMAXPROCS=%d: %d goroutines during nested calls; want at most %d (no goroutine per call)", procs, peak.Load(), limit)
			}
		}()
	}
	checkNoGrowth(t, base)
}
