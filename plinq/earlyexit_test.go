package plinq_test

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// TestEarlyExit: operators whose answer is known early stop handing out
// chunks, and running chunks stop at their next batch: over 16M elements
// with the answer near the start, with every partitioner, they test at most
// far + workers*BatchLen elements, on any interleaving.
//
// Each element is tested at most once, so those before far count at most
// far. A test of an element at or past far waits until an early exit has
// stopped the loop (plinq.OnStopAll): then each of the workers finishes at
// most the batch it is in, and starts no other. The answers of Any, Every
// and Contains are before far, and so is every element that the
// positional operators (First, Take, TakeWhile, ElementAt, a range loop
// that breaks) test, over windows that double from 4096 (see window.go);
// their answers are in the second window, which ends far before far.
//
// Without the stop, a worker whose range starts at or past far (Static's
// second, a stealing run's, Guided's) waits for one in vain: after
// stopWait it goes on, tests the rest of its range and fails the bound,
// and the wait itself is reported. So that one does, the test of the
// answer of Any, Every and Contains waits, for at most answerWait, until a
// test at or past far has begun (a caller that runs alone in the late
// state has no such worker); this wait does not change the bound.
func TestEarlyExit(t *testing.T) {
	const (
		n          = 1 << 24
		far        = 1 << 16
		workers    = 2
		stopWait   = 10 * time.Second
		answer     = 1000
		answerWait = time.Second
	)
	limit := int64(far + workers*plinq.BatchLen())
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(64), partition.Guided(1), partition.Stealing(), partition.Auto()} {
		var (
			calls     atomic.Int64
			stopped   chan struct{} // closed by the case's first early exit that stops the loop
			waited    chan struct{} // closed stopWait after the case began
			waitedOut atomic.Bool   // some test went on without a stop
			reached   atomic.Bool   // some test at or past far has begun
		)
		test := func(i int) {
			calls.Add(1)
			if i < far {
				return
			}
			reached.Store(true)
			select {
			case <-stopped:
			case <-waited:
				select {
				case <-stopped:
				default:
					waitedOut.Store(true)
				}
			}
		}
		testAnswer := func(i int) {
			test(i)
			for start := time.Now(); i == answer && !reached.Load() && time.Since(start) < answerWait; {
				runtime.Gosched()
			}
		}
		src := plinq.Range(0, n).With(pfor.WithWorkers(workers), pfor.WithPartitioner(p))
		counted := src.Where(func(i int) bool { test(i); return true })
		tests := []struct {
			name string
			run  func() any
			want any
		}{
			{"Any", func() any { return must(src.Any(func(i int) bool { testAnswer(i); return i == answer })) }, true},
			{"Every", func() any { return must(src.Every(func(i int) bool { testAnswer(i); return i < answer })) }, false},
			{"Contains", func() any {
				return must(plinq.Contains(src.Where(func(i int) bool { testAnswer(i); return true }), answer))
			}, true},
			{"First", func() any { return must(counted.Where(func(i int) bool { return i >= 5000 }).First()) }, 5000},
			{"Take", func() any { return len(must(counted.Take(10_000).ToSlice())) }, 10_000},
			{"TakeWhile", func() any {
				return len(must(src.TakeWhile(func(i int) bool { test(i); return i < 10_000 }).ToSlice()))
			}, 10_000},
			{"ElementAt", func() any { return must(counted.ElementAt(7000)) }, 7000},
			{"All break", func() any {
				for v := range values(counted) {
					return v
				}
				return -1
			}, 0},
		}
		for _, tt := range tests {
			calls.Store(0)
			waitedOut.Store(false)
			reached.Store(false)
			stop, wait := make(chan struct{}), make(chan struct{})
			stopped, waited = stop, wait
			var once sync.Once
			restore := plinq.OnStopAll(func() { once.Do(func() { close(stop) }) })
			timer := time.AfterFunc(stopWait, func() { close(wait) })
			got := tt.run()
			timer.Stop()
			restore()
			if got != tt.want {
				t.Errorf("%s with %s = %v; want %v", tt.name, p.Name(), got, tt.want)
			}
			if waitedOut.Load() {
				t.Errorf("%s with %s: tests past element %d went on after %v without an early exit", tt.name, p.Name(), far, stopWait)
			}
			if c := calls.Load(); c > limit {
				t.Errorf("%s with %s tested %d elements of %d; want at most %d: an early exit", tt.name, p.Name(), c, n, limit)
			}
		}
	}
}

// TestFirstIsFirstInOrder: First and Take return the first elements in
// query order even when a later chunk finds matches first: here the elements
// before 100 are slow, and every element matches.
func TestFirstIsFirstInOrder(t *testing.T) {
	slowStart := func(i int) bool {
		if i < 100 && i%10 == 0 {
			time.Sleep(200 * time.Microsecond)
		}
		return true
	}
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(1), partition.Auto()} {
		q := plinq.Range(0, 100_000).With(pfor.WithWorkers(4), pfor.WithPartitioner(p)).Where(slowStart)
		if got := must(q.First()); got != 0 {
			t.Errorf("First with %s = %d; want 0", p.Name(), got)
		}
		if got, want := must(q.Take(150).ToSlice()), slices.Collect(values(plinq.Range(0, 150))); !slices.Equal(got, want) {
			t.Errorf("Take(150) with %s = %v; want 0..149", p.Name(), got)
		}
		if got := must(q.TakeWhile(func(i int) bool { return i != 57 }).Count()); got != 57 {
			t.Errorf("TakeWhile(!= 57).Count() with %s = %d; want 57", p.Name(), got)
		}
	}
}
