package plinq_test

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// stopScanLen is long enough for pfor's parallel scan plan, whose first
// part alone is a third of it and whose blocks are far shorter than a
// twelfth of it.
const stopScanLen = 3 << 16

func indices(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// spinUntil spins until f reports true, for at most 10 seconds.
func spinUntil(f func() bool) {
	for deadline := time.Now().Add(10 * time.Second); !f() && time.Now().Before(deadline); {
		runtime.Gosched()
	}
}

// TestScanCanceledBetweenBlocks: a Scan whose op cancels one of the query's
// contexts on the first element (the query's own, or a second one given
// with WithContext) returns that context's error and no elements, having
// called op, in one of a few scans, for no more than a twelfth of the
// input after the cancel (the scan makes 4n/3 calls in all): the contexts
// are looked at between blocks, not only after the scan.
//
// The second context's cancel reaches pfor through a goroutine that needs
// a P to run (op gives it one by sleeping), and which can start late by
// many blocks of the other worker's: for it the count is of the calls on
// the first part alone, which the canceling worker scans by itself block by
// block, up to three quarters of it. A scan that does not look between
// blocks makes the whole first part's calls after the cancel.
//
// The cancel reaches the scan a little after op's call of cancel, and for
// the second context a goroutine must run first: when the operating system
// takes the thread off its core in between, or that goroutine starts late,
// the scan goes on meanwhile, as it should. So a count over the limit is
// retried, up to 3 scans in all, and fails only if all are over: a scan
// that looks at the contexts only at its end is over every time.
func TestScanCanceledBetweenBlocks(t *testing.T) {
	const attempts = 3
	for _, second := range []bool{false, true} {
		for _, p := range []partition.Partitioner{partition.Static(), partition.Auto()} {
			limit := int64(stopScanLen / 12)
			if second { // calls on the first part, a third of the input
				limit = stopScanLen / 4
			}
			var afters []int64
			for range attempts {
				after := canceledScan(t, second, p)
				if after <= limit {
					break
				}
				t.Logf("second=%v %s: Scan called op %d times after the cancel; want at most %d: retrying", second, p.Name(), after, limit)
				afters = append(afters, after)
			}
			if len(afters) == attempts {
				t.Errorf("second=%v %s: Scan called op %v times after the cancel, in %d scans; want at most %d in some scan", second, p.Name(), afters, attempts, limit)
			}
		}
	}
}

// canceledScan runs one Scan of TestScanCanceledBetweenBlocks, checks its
// result, and returns how many times op was called after the cancel: all
// calls for the query's own context, and for a second one only the calls
// on the first part, which the worker that canceled scans alone.
func canceledScan(t *testing.T, second bool, p partition.Partitioner) (after int64) {
	s := indices(stopScanLen)
	ctx, cancel := context.WithCancel(context.Background())
	var calls, firstCalls, atCancel atomic.Int64
	op := func(a, b int) int {
		calls.Add(1)
		if b < stopScanLen/3 {
			firstCalls.Add(1)
		}
		if b == 0 {
			cancel()
			atCancel.Store(calls.Load())
			time.Sleep(time.Millisecond) // frees this P for the goroutine of a merged context's AfterFunc
		}
		return a + b
	}
	q := plinq.From(s).With(pfor.WithWorkers(2), pfor.WithPartitioner(p))
	if second {
		other, stop := context.WithCancel(context.Background())
		defer stop()
		q = q.WithContext(other).WithContext(ctx)
	} else {
		q = q.WithContext(ctx)
	}
	got, err := plinq.Scan(q, 0, op).ToSlice()
	if got != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("second=%v %s: Scan canceled by op = %d elements, %v; want none, context.Canceled", second, p.Name(), len(got), err)
	}
	if second {
		return firstCalls.Load() - 1 // op(0, 0) is the first part's first call
	}
	return calls.Load() - atCancel.Load()
}

// TestScanPanicStopsBlocks: a panic in op on the first element (while
// another worker folds a block of the middle) reaches the caller of the
// terminal operation as a *pfor.PanicError holding the value, after op was
// called for no more than a twelfth of the input, and op is not called
// after the terminal operation returns: nothing is left running.
func TestScanPanicStopsBlocks(t *testing.T) {
	s := indices(stopScanLen)
	for _, p := range []partition.Partitioner{partition.Static(), partition.Auto()} {
		var calls, atPanic atomic.Int64
		var middle atomic.Bool
		op := func(a, b int) int {
			calls.Add(1)
			if b >= stopScanLen/3 && b < stopScanLen-stopScanLen/3 && !middle.Swap(true) {
				spinUntil(func() bool { return atPanic.Load() != 0 }) // not done before op panics
				time.Sleep(time.Millisecond)                          // nor before the panic is on its way out
			}
			if b == 0 {
				spinUntil(middle.Load)
				atPanic.Store(calls.Load())
				panic(errBoom)
			}
			return a + b
		}
		func() {
			defer func() {
				v := recover()
				if pe, ok := v.(*pfor.PanicError); !ok || !errors.Is(pe, errBoom) {
					t.Fatalf("%s: Scan with a panicking op: recovered %T %v; want a *pfor.PanicError of errBoom", p.Name(), v, v)
				}
			}()
			plinq.Scan(plinq.From(s).With(pfor.WithWorkers(2), pfor.WithPartitioner(p)), 0, op).ToSlice()
		}()
		if after := calls.Load() - atPanic.Load(); after > stopScanLen/12 {
			t.Errorf("%s: Scan called op %d times after op panicked; want at most %d", p.Name(), after, stopScanLen/12)
		}
		returned := calls.Load()
		time.Sleep(10 * time.Millisecond)
		if c := calls.Load() - returned; c != 0 {
			t.Errorf("%s: op was called %d times after Scan's ToSlice panicked", p.Name(), c)
		}
	}
}
