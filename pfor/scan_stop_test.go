package pfor

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
)

// stopScanInput returns 0, 1, ..., n-1 with n such that the scan plan's
// middle blocks hold scanMinBlock elements, and the bounds of its middle
// part.
func stopScanInput() (in []int, first, last int) {
	n := 3 * scanBlocks * scanMinBlock
	in = make([]int, n)
	for i := range in {
		in[i] = i
	}
	return in, n / 3, n - n/3
}

// waitFor spins until f reports true, for at most 10 seconds.
func waitFor(f func() bool) {
	for deadline := time.Now().Add(10 * time.Second); !f() && time.Now().Before(deadline); {
		runtime.Gosched()
	}
}

// TestScanPanicStopsBlocks: once op panics on the first element of the
// first part (when another worker has begun folding a middle block, which
// goes on once the panic is under way),
// the other workers stop at their next block: the scan calls op for at
// most two blocks per worker more (in one of a few scans: see
// checkPanicStops) before the panic reaches the caller as a *PanicError,
// and never after; on one core or two, with more workers
// than cores too. With the static partitioner a worker's
// middle blocks are one chunk, which only the scan's own look between
// blocks ends.
func TestScanPanicStopsBlocks(t *testing.T) {
	for _, c := range stopConfigs() {
		t.Run(c.name, func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.procs))
			checkPanicStops(t, c.workers)
		})
	}
}

// A stopConfig is a worker count and a GOMAXPROCS: two workers on one or
// two cores, and eight (more than the cores) on two.
type stopConfig struct {
	name           string
	workers, procs int
}

func stopConfigs() []stopConfig {
	return []stopConfig{{"workers=2/procs=2", 2, 2}, {"workers=2/procs=1", 2, 1}, {"workers=8/procs=2", 8, 2}}
}

// checkPanicStops runs the panicking scan of TestScanPanicStopsBlocks with
// each partitioner. The count of calls after the panic starts when op is
// about to panic, a little before the scan stops (on the panic's way out):
// if the operating system takes the panicking thread off its core in
// between, the other workers fold blocks meanwhile, as they should. So a
// count above the bound is retried, up to stopAttempts scans in all, and
// fails only if every scan's does: a scan that does not stop exceeds it
// every time.
func checkPanicStops(t *testing.T, workers int) {
	const stopAttempts = 3
	for _, p := range []partition.Partitioner{partition.Static(), partition.Auto()} {
		// Each worker finishes its block, and may start one more if it
		// looks between blocks before the panicking one stops the scan.
		bound := int64(2 * (workers + 1) * scanMinBlock)
		var afters []int64
		for range stopAttempts {
			after := panicStopScan(t, p, workers)
			if after <= bound {
				break
			}
			t.Logf("%s: Scan called op %d times after op panicked; want at most %d: retrying", p.Name(), after, bound)
			afters = append(afters, after)
		}
		if len(afters) == stopAttempts {
			t.Errorf("%s: Scan called op %v times after op panicked, in %d scans; want at most %d blocks of %d in some scan",
				p.Name(), afters, stopAttempts, 2*(workers+1), scanMinBlock)
		}
	}
}

// panicStopScan runs one Scan with p whose op panics on the first element,
// checks that the panic reaches the caller and that op is not called after
// Scan panicked, and returns how many times op was called after it was
// about to panic.
func panicStopScan(t *testing.T, p partition.Partitioner, workers int) (after int64) {
	in, first, last := stopScanInput()
	var calls, atPanic atomic.Int64
	var middle atomic.Bool
	op := func(a, b int) int {
		calls.Add(1)
		if b >= first && b < last && !middle.Swap(true) {
			waitFor(func() bool { return atPanic.Load() != 0 }) // not done before op panics
			time.Sleep(time.Millisecond)                        // nor before the panic is on its way out
		}
		if b == 0 {
			waitFor(middle.Load)
			atPanic.Store(calls.Load())
			panic("op")
		}
		return a + b
	}
	func() {
		defer func() {
			var pe *PanicError
			if err, _ := recover().(error); !errors.As(err, &pe) || fmt.Sprint(pe.Value) != "op" {
				t.Fatalf("%s: Scan with a panicking op: recovered %v; want a *PanicError of \"op\"", p.Name(), err)
			}
		}()
		Scan(in, 0, op, WithWorkers(workers), WithPartitioner(p))
	}()
	after = calls.Load() - atPanic.Load()
	returned := calls.Load()
	time.Sleep(10 * time.Millisecond)
	if c := calls.Load(); c != returned {
		t.Errorf("%s: op was called %d times after Scan panicked", p.Name(), c-returned)
	}
	return after
}

// TestScanErrCanceledStopsBlocks: once ctx is done (op cancels it on the
// first element), ScanErr and ScanExclusiveErr start no block: they call
// op for at most a block per worker more and return nil and ctx's error,
// under either partitioner, on one core or two, with more workers than
// cores too. Without the look between blocks, the first part
// alone is a third of the input.
func TestScanErrCanceledStopsBlocks(t *testing.T) {
	for _, c := range stopConfigs() {
		t.Run(c.name, func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.procs))
			checkCancelStops(t, c.workers)
		})
	}
}

func checkCancelStops(t *testing.T, workers int) {
	in, _, _ := stopScanInput()
	for _, p := range []partition.Partitioner{partition.Static(), partition.Auto()} {
		for _, scan := range []func(context.Context, []int, int, func(int, int) int, ...Option) ([]int, error){ScanErr[int], ScanExclusiveErr[int]} {
			ctx, cancel := context.WithCancel(context.Background())
			var calls, atCancel atomic.Int64
			op := func(a, b int) int {
				calls.Add(1)
				if b == 0 {
					cancel()
					atCancel.Store(calls.Load())
				}
				return a + b
			}
			out, err := scan(ctx, in, 0, op, WithWorkers(workers), WithPartitioner(p))
			if out != nil || !errors.Is(err, context.Canceled) {
				t.Errorf("%s: a scan canceled by op = %d elements, %v; want none, context.Canceled", p.Name(), len(out), err)
			}
			if after := calls.Load() - atCancel.Load(); after > int64((workers+1)*scanMinBlock) {
				t.Errorf("%s: the scan called op %d times after ctx was canceled; want at most %d blocks of %d", p.Name(), after, workers+1, scanMinBlock)
			}
		}
	}
}

// TestScanErr: ScanErr and ScanExclusiveErr with a context that is never
// done give Scan's and ScanExclusive's results; with one done before the
// call they call op never and return nil and its error, short input or
// long.
func TestScanErr(t *testing.T) {
	in, _, _ := stopScanInput()
	add := func(a, b int) int { return a + b }
	ctx := context.Background()
	if got, err := ScanErr(ctx, in, 0, add); err != nil || !slices.Equal(got, Scan(in, 0, add)) {
		t.Errorf("ScanErr with a live context: error %v, or the result differs from Scan's", err)
	}
	if got, err := ScanExclusiveErr(ctx, in, 0, add); err != nil || !slices.Equal(got, ScanExclusive(in, 0, add)) {
		t.Errorf("ScanExclusiveErr with a live context: error %v, or the result differs from ScanExclusive's", err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	calls := 0
	count := func(a, b int) int { calls++; return a + b }
	for _, n := range []int{3, len(in)} {
		if got, err := ScanErr(done, in[:n], 0, count); got != nil || !errors.Is(err, context.Canceled) || calls != 0 {
			t.Errorf("ScanErr of %d with a canceled context = %d elements, %v after %d calls of op; want none, context.Canceled, no call", n, len(got), err, calls)
		}
	}
}
