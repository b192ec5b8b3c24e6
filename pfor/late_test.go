package pfor_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// The late state (see late.go): while helpers are late, calls of the
// default partitioner start on the caller alone and bring in helpers only
// once they have run for a while.

// TestLateSigns: lateSigns calls in a row with late helpers enter the state,
// fewer do not, and a call that goes well starts the count again.
func TestLateSigns(t *testing.T) {
	pfor.SetLate(t, false)
	for range pfor.LateSigns - 1 {
		if pfor.NoteCall(true) {
			t.Fatalf("late after fewer than %d calls with late helpers; want not yet", pfor.LateSigns)
		}
	}
	if pfor.NoteCall(false) {
		t.Fatal("late after a call that went well; want not")
	}
	for i := range pfor.LateSigns {
		if late := pfor.NoteCall(true); late != (i == pfor.LateSigns-1) {
			t.Fatalf("after %d calls in a row with late helpers, late = %v; want %v", i+1, late, i == pfor.LateSigns-1)
		}
	}
}

// TestLateShortCallRunsOnTheCaller: a short call in the late state runs as
// worker 0 alone, which a call that starts its partitioner at once never
// does with 4 workers: worker 0's block is a quarter of the range. (A call
// can outlast the solo start on a loaded machine, so the test gives it a
// few tries.)
func TestLateShortCallRunsOnTheCaller(t *testing.T) {
	pfor.SetLate(t, true)
	var st pfor.Stats
	for try := 0; ; try++ {
		var ran atomic.Int32
		pfor.Range(0, 100, func(int) { ran.Add(1) }, pfor.WithWorkers(4), pfor.WithStats(&st))
		if ran.Load() != 100 {
			t.Fatalf("ran %d items; want 100", ran.Load())
		}
		if len(st.Workers) != 4 {
			t.Fatalf("stats of %d workers; want 4:\n%v", len(st.Workers), st.String())
		}
		if st.Workers[0].Items == 100 && st.Workers[0].Steals == 0 {
			if st.Workers[0].Chunks < 2 || st.Workers[0].Busy <= 0 {
				t.Fatalf("worker 0 ran the call alone, in %d chunks, busy %v; want at least two, the first of one item, and busy > 0", st.Workers[0].Chunks, st.Workers[0].Busy)
			}
			return
		}
		if try == 9 {
			t.Fatalf("10 short calls while late, none ran as worker 0 alone; the last:\n%v", st.String())
		}
	}
}

// TestLateStartsWithOneItem: the caller's first batch is one item, as the
// items' cost is not known yet: were each to take 10 ms, a batch of 16
// would run 160 ms before any helper came in.
func TestLateStartsWithOneItem(t *testing.T) {
	pfor.SetLate(t, true)
	var first atomic.Int64
	pfor.Chunks(0, 1000, func(lo, hi int) {
		if lo == 0 {
			first.Store(int64(hi))
		}
	}, pfor.WithWorkers(4))
	if first.Load() != 1 {
		t.Errorf("the first chunk was [0, %d); want [0, 1)", first.Load())
	}
}

// TestLateKeepsPromisedRanges: calls whose partitioner or grain promises
// its ranges hand them out as promised in the late state: Static's four
// blocks, and with a grain chunks of at most the grain (a solo start's
// batches grow past it).
func TestLateKeepsPromisedRanges(t *testing.T) {
	pfor.SetLate(t, true)
	for _, tc := range []struct {
		name string
		opts []pfor.Option
		want func(lo, hi int) bool
	}{
		{"static", []pfor.Option{pfor.WithPartitioner(partition.Static())}, func(lo, hi int) bool { return lo%250 == 0 && hi == lo+250 }},
		{"auto with a grain", []pfor.Option{pfor.WithGrain(50)}, func(lo, hi int) bool { return hi-lo <= 50 }},
	} {
		var mu sync.Mutex
		var bad [][2]int
		pfor.Chunks(0, 1000, func(lo, hi int) {
			if !tc.want(lo, hi) {
				mu.Lock()
				bad = append(bad, [2]int{lo, hi})
				mu.Unlock()
			}
		}, append(tc.opts, pfor.WithWorkers(4))...)
		if len(bad) > 0 {
			t.Errorf("%s in the late state: chunks %v; want the ranges the partitioner and grain promise", tc.name, bad)
		}
	}
}

// TestLateWhenHelpersDoNotRun: at GOMAXPROCS=1 a helper woken or spinning
// gets no P while the caller runs, so every call's caller runs the
// helper's slot itself although no helper was parked: a sign each time,
// and the pool turns late.
func TestLateWhenHelpersDoNotRun(t *testing.T) {
	pfor.SetLate(t, false)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for range 4 * pfor.LateSigns {
		pfor.Range(0, 100, func(int) {}, pfor.WithWorkers(2))
		if pfor.IsLate() {
			return
		}
	}
	t.Fatalf("%d calls whose helpers never ran, and the pool is not late; want late after %d", 4*pfor.LateSigns, pfor.LateSigns)
}

// TestCallerYieldsAfterRunningAHelpersSlot: a caller that ran a helper's
// slot itself, in a call that took a few microseconds, yields the processor
// once before it returns, so that a goroutine queued behind it (a helper
// the Go scheduler put on its processor) runs before the next call. At
// GOMAXPROCS=1 the helper never gets the processor during a call, and a
// goroutine started before the call has run by the time it returns.
func TestCallerYieldsAfterRunningAHelpersSlot(t *testing.T) {
	pfor.SetLate(t, false)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const calls = 40
	ranBefore := 0
	for range calls {
		var ran atomic.Bool
		go ran.Store(true)
		pfor.Chunks(0, 2, func(lo, hi int) {
			for t0 := time.Now(); time.Since(t0) < 5*time.Microsecond; {
			}
		}, pfor.WithWorkers(2), pfor.WithPartitioner(partition.Static()))
		if ran.Load() {
			ranBefore++
		}
	}
	// The runtime takes the caller back from the global queue first one
	// time in 61; every other call should let the goroutine run.
	if ranBefore < calls/2 {
		t.Fatalf("a goroutine queued behind the caller ran during %d of %d calls; want most: the caller should yield after running a helper's slot", ranBefore, calls)
	}
}

// TestLateFailureStopsTheCall: a call in the late state whose first item
// panics, returns an error or cancels its context stops there, as any call
// does: its first batch is that one item, on the caller alone, and no other
// item runs.
func TestLateFailureStopsTheCall(t *testing.T) {
	pfor.SetLate(t, true)
	errBoom := errors.New("boom")
	for _, tc := range []struct {
		name string
		call func(ran *atomic.Int32) error
		want error
	}{
		{"panic", func(ran *atomic.Int32) (err error) {
			defer func() {
				if pe, ok := recover().(*pfor.PanicError); ok && pe.Call == "Range" {
					err = errBoom
				}
			}()
			pfor.Range(0, 1000, func(int) { ran.Add(1); panic("boom") }, pfor.WithWorkers(4))
			return nil
		}, errBoom},
		{"error", func(ran *atomic.Int32) error {
			return pfor.ChunksErr(context.Background(), 0, 1000, func(lo, hi int) error {
				ran.Add(int32(hi - lo))
				return errBoom
			}, pfor.WithWorkers(4))
		}, errBoom},
		{"cancel", func(ran *atomic.Int32) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			return pfor.RangeErr(ctx, 0, 1000, func(int) error { ran.Add(1); cancel(); return nil }, pfor.WithWorkers(4))
		}, context.Canceled},
	} {
		var ran atomic.Int32
		if err := tc.call(&ran); !errors.Is(err, tc.want) {
			t.Errorf("%s: the call returned %v; want %v", tc.name, err, tc.want)
		}
		if ran.Load() != 1 {
			t.Errorf("%s: %d items ran; want 1, the first batch", tc.name, ran.Load())
		}
	}
}

// TestLateLongCallBringsInHelpers: a call in the late state that outlasts
// soloFor hands what is left to its partitioner's slots, where a call on the
// caller alone to the end would run every item as worker 0 without a steal.
// Here soloFor is 0, so that the hand-off comes after the first batch, item
// 0; the caller's later items wait until a helper has run one, however long
// the helper takes to get a core.
func TestLateLongCallBringsInHelpers(t *testing.T) {
	pfor.SetLate(t, true)
	pfor.StretchSolo(t, 0)
	me := goid()
	var other atomic.Int32
	deadline := time.Now().Add(time.Minute)
	var st pfor.Stats
	pfor.Range(0, 2000, func(i int) {
		if goid() != me {
			other.Add(1)
			return
		}
		for i > 0 && other.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Microsecond)
		}
	}, pfor.WithWorkers(2), pfor.WithStats(&st))
	if other.Load() == 0 || st.Workers[0].Items == 2000 && st.Workers[0].Steals == 0 {
		t.Fatalf("a call in the late state, past soloFor, ran %d items on a helper, whose caller waited a minute for one; want the partitioner's slots after soloFor:\n%v", other.Load(), st.String())
	}
}

// TestLateBatchesGrow: the caller's batches in the late state start at one
// item and grow at most sixteen-fold from one to the next (by the clock,
// less: see late.go's soloGrowth).
func TestLateBatchesGrow(t *testing.T) {
	pfor.SetLate(t, true)
	pfor.StretchSolo(t, 1000) // the call runs alone to the end, however loaded the machine
	var mu sync.Mutex
	var sizes []int // the caller alone runs the batches one after the other
	pfor.Chunks(0, 1000, func(lo, hi int) {
		mu.Lock()
		sizes = append(sizes, hi-lo)
		mu.Unlock()
	}, pfor.WithWorkers(4))
	if len(sizes) == 0 || sizes[0] != 1 {
		t.Fatalf("batches %v; want the first of one item", sizes)
	}
	for k := 1; k < len(sizes); k++ {
		if sizes[k] > 16*sizes[k-1] {
			t.Fatalf("batches %v; want each at most 16 times the one before", sizes)
		}
	}
}

// TestLateIgnoresWokenHelpers: a call whose caller ran the slot of the
// helper its post woke from sleep neither counts as a sign nor breaks a
// row of them. The Go scheduler queues the woken helper on the caller's
// processor, and a goroutine that yields in a loop keeps the other one, so
// that the helper gets no processor before the caller has run its slot.
func TestLateIgnoresWokenHelpers(t *testing.T) {
	pfor.SetLate(t, false)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	pfor.Range(0, 2, func(int) {}, pfor.WithWorkers(2)) // starts the pool
	var stop atomic.Bool
	spun := make(chan struct{})
	go func() {
		defer close(spun)
		for !stop.Load() {
			runtime.Gosched()
		}
	}()
	defer func() { stop.Store(true); <-spun }()
	streaks := []int{}
	for range 5 { // the helper may still get a processor in time: try again
		deadline := time.Now().Add(5 * time.Second)
		for _, sleeping := pfor.TaskIdle(); sleeping < 1; _, sleeping = pfor.TaskIdle() {
			if time.Now().After(deadline) {
				t.Fatal("the pool worker did not sleep within 5 s of the last call")
			}
			time.Sleep(time.Millisecond)
		}
		pfor.SetLate(t, false)
		for range pfor.LateSigns - 1 {
			pfor.NoteCall(true)
		}
		pfor.Range(0, 100, func(int) {}, pfor.WithWorkers(2))
		if pfor.LateStreak() == pfor.LateSigns-1 && !pfor.IsLate() {
			return
		}
		streaks = append(streaks, pfor.LateStreak())
	}
	t.Fatalf("after %d signs and a call that woke the helper, the streak was %v in 5 tries; want %d, neither counted nor broken", pfor.LateSigns-1, streaks, pfor.LateSigns-1)
}

// TestLateWindowEndsItsRow: when the late state's window ends, the row of
// signs that started it ends too, so a single late call after the window
// does not start another (the helpers sleep through a window, and the
// calls after it find them asleep).
func TestLateWindowEndsItsRow(t *testing.T) {
	pfor.SetLate(t, false)
	for range pfor.LateSigns {
		pfor.NoteCall(true)
	}
	if !pfor.IsLate() {
		t.Fatalf("not late after %d signs", pfor.LateSigns)
	}
	pfor.ExpireLate()
	if pfor.IsLate() {
		t.Fatal("late after the window ended")
	}
	if pfor.NoteCall(true) {
		t.Fatalf("one sign after the window started another (streak %d); want %d", pfor.LateStreak(), pfor.LateSigns)
	}
}

// TestLateWindowAdapts: the first late state lasts the shortest window; one
// that starts again within a window of the last one's end lasts twice as
// long, up to the longest; one that starts later lasts the shortest again.
func TestLateWindowAdapts(t *testing.T) {
	pfor.SetLate(t, false)
	enter := func() time.Duration {
		t.Helper()
		for range pfor.LateSigns {
			pfor.NoteCall(true)
		}
		if !pfor.IsLate() {
			t.Fatalf("not late after %d signs", pfor.LateSigns)
		}
		w := pfor.LateWindow()
		pfor.ExpireLate()
		if pfor.IsLate() {
			t.Fatal("late after the window ended")
		}
		return w
	}
	want := pfor.LateWindowMin
	if w := enter(); w != want {
		t.Fatalf("the first window: %v; want %v", w, want)
	}
	for range 6 { // each state starts as soon as the last ended
		want = min(2*want, pfor.LateWindowMax)
		if w := enter(); w != want {
			t.Fatalf("a state that starts again at once: window %v; want %v", w, want)
		}
	}
	if want != pfor.LateWindowMax {
		t.Fatalf("the windows doubled only to %v; want %v", want, pfor.LateWindowMax)
	}
	pfor.AgeLate(pfor.LateWindowMax)
	if w := enter(); w != pfor.LateWindowMin {
		t.Fatalf("a state that starts a longest window after the last ended: window %v; want %v", w, pfor.LateWindowMin)
	}
}
