package pfor_test

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// TestWideCallLeavesNoExtraHelpers: WithWorkers is a maximum. A call over
// 100 items runs on at most 100 slots however many workers it asks for,
// and the helpers it starts beyond GOMAXPROCS-1 exit once idle, well within
// a second.
func TestWideCallLeavesNoExtraHelpers(t *testing.T) {
	var slots atomic.Int32
	var st pfor.Stats
	pfor.Range(0, 100, func(int) { slots.Add(1) }, pfor.WithWorkers(500), pfor.WithStats(&st))
	if slots.Load() != 100 {
		t.Fatalf("Range(0, 100) with 500 workers called body %d times; want 100", slots.Load())
	}
	if len(st.Workers) > 100 {
		t.Errorf("Range(0, 100) with 500 workers ran %d worker slots; want at most 100 (one per item)", len(st.Workers))
	}
	want := max(runtime.GOMAXPROCS(0)-1, 0)
	deadline := time.Now().Add(10 * time.Second) // extra helpers end once they get a core and find nothing
	for pfor.Helpers() > want {
		if time.Now().After(deadline) {
			t.Fatalf("%d helpers 10 s after a call of 500 workers; want at most GOMAXPROCS-1 = %d", pfor.Helpers(), want)
		}
		time.Sleep(time.Millisecond)
	}
	if n := countHelperGoroutines(t); n > want {
		t.Errorf("%d goroutines labelled as pool helpers once the pool counts %d; want at most %d", n, pfor.Helpers(), want)
	}
}

// countHelperGoroutines counts the goroutines running the loop of a pool
// worker or of an extra helper, from the goroutine profile: a check that does not trust the pool's
// own count.
func countHelperGoroutines(t *testing.T) int {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		t.Fatal(err)
	}
	// Each stack is a line "count @ pcs", then a line per frame.
	n, count := 0, 0
	for _, line := range strings.Split(buf.String(), "\n") {
		if _, err := fmt.Sscanf(line, "%d @", &count); err == nil {
			continue
		}
		if strings.Contains(line, "sched.(*Worker).loop+") || strings.Contains(line, "sched.(*Pool).extra+") {
			n += count
		}
	}
	return n
}

// TestCallerRunsUnclaimedSlots: a caller never waits for a helper that has
// not claimed a slot, with a partitioner that gives each slot a block only
// that slot can run (Static) too: nested calls whose helpers are all busy
// in the outer call's bodies complete on their callers.
func TestCallerRunsUnclaimedSlots(t *testing.T) {
	static := pfor.WithPartitioner(partition.Static())
	for _, procs := range []int{1, 2, 4} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			const n = 8
			var sum atomic.Int64
			done := make(chan struct{})
			go func() {
				defer close(done)
				pfor.Range(0, n, func(i int) {
					pfor.Range(0, n, func(j int) {
						pfor.Range(0, n, func(k int) { sum.Add(int64(i*n*n + j*n + k)) }, static, pfor.WithWorkers(n))
					}, static, pfor.WithWorkers(n))
				}, static, pfor.WithWorkers(n))
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("GOMAXPROCS=%d: nested Static calls did not finish in 30 s: a caller waits for a slot no helper runs", procs)
			}
			if want := int64(n*n*n) * (n*n*n - 1) / 2; sum.Load() != want {
				t.Errorf("GOMAXPROCS=%d: nested sum %d; want %d", procs, sum.Load(), want)
			}
		}()
	}
}

// TestSlotsAreBounded: a call has at most one slot per item (per grain) and
// at most MaxSlots, so that no worker count, however large, overflows the
// job's 32-bit slot count or asks a partitioner for state per slot beyond
// that.
func TestSlotsAreBounded(t *testing.T) {
	for _, c := range []struct {
		lo, hi, workers, grain int
		want                   uint64
	}{
		{0, 0, 8, 0, 0},
		{0, 100, 500, 0, 100},
		{0, 35, 8, 10, 4},
		{0, math.MaxInt, 4, 0, 4},
		{0, math.MaxInt, math.MaxInt32, 0, pfor.MaxSlots},
		{math.MinInt, math.MaxInt, math.MaxInt, 0, pfor.MaxSlots},
	} {
		opts := []pfor.Option{pfor.WithWorkers(c.workers)}
		if c.grain > 0 {
			opts = append(opts, pfor.WithGrain(c.grain))
		}
		if got := pfor.SlotsOf(c.lo, c.hi, opts...); got != c.want {
			t.Errorf("a call over [%d, %d) with WithWorkers(%d), grain %d: %d slots; want %d", c.lo, c.hi, c.workers, c.grain, got, c.want)
		}
	}
}
