package pfor_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

func goroutines(t *testing.T) int {
	t.Helper()
	return runtime.NumGoroutine() - pfor.Helpers()
}

// checkNoGrowth fails if goroutines other than the pool's helpers have grown
// since base, after giving exiting goroutines up to 10 s to end: on a busy
// machine they may wait long for a core, while a leaked one stays.
func checkNoGrowth(t *testing.T, base int) {
	t.Helper()
	var now int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if now = goroutines(t); now <= base {
			return
		}
		time.Sleep(time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines besides the pool's helpers; want at most %d as before:\n%s", now, base, buf[:runtime.Stack(buf, true)])
}

// TestNoLeaks: calls that return normally, by error, by cancellation or by
// panic leave no goroutine behind, and the pool does not grow with the
// number of calls: only with the widest call (workers-1 helpers).
func TestNoLeaks(t *testing.T) {
	base := goroutines(t)
	errStop := errors.New("stop")
	for i := range 300 {
		switch i % 4 {
		case 0:
			pfor.Range(0, 1000, func(int) {}, pfor.WithWorkers(8))
		case 1:
			pfor.RangeErr(context.Background(), 0, 1000, func(j int) error {
				if j == 500 {
					return errStop
				}
				return nil
			}, pfor.WithWorkers(8))
		case 2:
			ctx, cancel := context.WithCancel(context.Background())
			pfor.RangeErr(ctx, 0, 1000, func(j int) error {
				if j == 10 {
					cancel()
				}
				return nil
			}, pfor.WithWorkers(8))
			cancel()
		case 3:
			recoverPanic(func() { pfor.Range(0, 1000, func(j int) { explode(j) }, pfor.WithWorkers(8)) })
		}
	}
	checkNoGrowth(t, base)
	if h := pfor.Helpers(); h > max(7, runtime.GOMAXPROCS(0)-1, widestCall) {
		t.Errorf("pool has %d helpers after 300 calls of 8 workers; want at most %d", h, max(7, widestCall))
	}
}

// widestCall is the largest WithWorkers any test in this package uses.
const widestCall = 32 - 1
