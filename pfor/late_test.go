package pfor_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/internal/sched"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// The late state (see late.go): while helpers are late, calls of the
// default partitioner start on the caller alone and bring in helpers only
// once they have run for a while.

// TestLateSigns: lateSigns calls in a row with late helpers enter the state,
// fewer do not, a call that goes well starts the count again, and calls
// that learnt nothing of their helpers neither count nor start it again.
func TestLateSigns(t *testing.T) {
	pfor.SetLate(t, false)
	for range pfor.LateSigns - 1 {
		if pfor.NoteCall(sched.Late) {
			t.Fatalf("late after fewer than %d calls with late helpers; want not yet", pfor.LateSigns)
		}
	}
	if pfor.NoteCall(sched.OnTime) {
		t.Fatal("late after a call that went well; want not")
	}
	for i := range pfor.LateSigns {
		if late := pfor.NoteCall(sched.Late); late != (i == pfor.LateSigns-1) {
			t.Fatalf("after %d calls in a row with late helpers, late = %v; want %v", i+1, late, i == pfor.LateSigns-1)
		}
		if i < pfor.LateSigns-1 && pfor.NoteCall(sched.NoSign) {
			t.Fatalf("late after %d calls with late helpers and some without a sign; want not yet", i+1)
		}
	}
	pfor.SetLate(t, false)
	for range pfor.LateSigns - 1 {
		pfor.NoteCall(sched.Late)
	}
	for range 3 * pfor.LateSigns {
		pfor.NoteCall(sched.NoSign)
	}
	if !pfor.NoteCall(sched.Late) {
		t.Fatalf("calls without a sign started the count again: %d late calls, some without a sign between, and not late", pfor.LateSigns)
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
		if st.Workers[0].Items == 100 && st.Workers[0].Steals == 0 {
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

// quietHelpers brings the pool to GOMAXPROCS-1 workers and waits until
// no helper of the pool spins: workers of earlier tests sleep or retire,
// extra helpers end. At GOMAXPROCS=1 a call then wakes no worker.
func quietHelpers(t *testing.T) {
	pfor.GrowPool()
	for try := 0; pfor.Spinning() > 0 || pfor.TaskWorkers() > runtime.GOMAXPROCS(0)-1; try++ {
		if try == 1000 {
			t.Fatalf("after 1 s, %d helpers still spinning, %d workers running; want 0 and GOMAXPROCS-1", pfor.Spinning(), pfor.TaskWorkers())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestNotLateWhileHelpersStart: at GOMAXPROCS=1 the extra helper a call
// starts gets no P while the caller runs, as on an idle machine a thread
// takes a while to run: back-to-back calls run its slot on the caller, and
// none of them is a sign. (A woken worker is no sign either, for
// wakeGrace: sched's TestDriveSigns. Here no worker is woken, so that no
// clock decides.)
func TestNotLateWhileHelpersStart(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	quietHelpers(t)
	pfor.SetLate(t, false)
	for i := range 4 * pfor.LateSigns {
		pfor.Range(0, 100, func(int) {}, pfor.WithWorkers(2))
		if pfor.IsLate() {
			t.Fatalf("late after %d back-to-back calls whose helpers had not run yet; want not late", i+1)
		}
	}
}

// TestLateWhenHelpersDoNotRun: at GOMAXPROCS=1 a helper that has run and
// spins gets no P while the caller runs, as a helper whose thread the
// operating system has taken off its core: every call's caller runs the
// slot the spinning helper should have claimed, a sign each time, and the
// pool turns late.
func TestLateWhenHelpersDoNotRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	quietHelpers(t)
	pfor.SetLate(t, false)
	pfor.Range(0, 100, func(int) {}, pfor.WithWorkers(2)) // starts an extra helper
	for try := 0; pfor.Spinning() == 0; try++ {
		if try == 1000 {
			t.Fatal("the extra helper a call started never spun")
		}
		runtime.Gosched() // lets the helper run until it yields, spinning
	}
	for range 4 * pfor.LateSigns {
		pfor.Range(0, 100, func(int) {}, pfor.WithWorkers(2))
		if pfor.IsLate() {
			return
		}
	}
	t.Fatalf("%d calls whose spinning helper never ran, and the pool is not late; want late after %d", 4*pfor.LateSigns, pfor.LateSigns)
}

// TestSpinningCountsAHelperOnce: at GOMAXPROCS=1, where the caller and an
// extra helper take turns at each yield of the body, a helper that spins,
// claims a slot, runs it and spins again is counted once.
func TestSpinningCountsAHelperOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	quietHelpers(t)
	for call := range 3 {
		pfor.Range(0, 2, func(int) { runtime.Gosched() }, pfor.WithWorkers(2))
		for try := 0; pfor.Spinning() == 0 && try < 1000; try++ {
			runtime.Gosched() // lets the helper finish its slot and spin
		}
		if n := pfor.Spinning(); n != 1 {
			t.Fatalf("after call %d, %d helpers counted spinning; want 1, the extra helper", call+1, n)
		}
	}
}

// TestSpinningSettles: the count of spinning helpers, which decides which
// slots the caller runs are late signs, returns to 0 once the pool is idle,
// after loops (some wider than the pool, whose extra helpers end), nested
// fork-join and Group tasks from several goroutines at several GOMAXPROCS,
// with gaps between calls in which helpers search.
// A count left above 0 would make every later call expect a helper.
func TestSpinningSettles(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4, 8, 2, 4, 8, 2, 4, 8} {
		runtime.GOMAXPROCS(procs)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for i := range 200 {
					pfor.Range(0, 64, func(int) {
						if i%2 == 0 {
							pfor.Join(func() {}, func() {})
						}
					}, pfor.WithWorkers(1+i%(2*procs+1)))
					var g pfor.Group
					for range 4 {
						g.Go(func(*pfor.Worker) error { return nil })
					}
					g.Wait()
					// A gap of 5 to 40 µs, so that helpers announce their
					// search before the next call finds them.
					for start := time.Now(); time.Since(start) < time.Duration(5<<(i%4))*time.Microsecond; {
					}
				}
			})
		}
		wg.Wait()
		for try := 0; pfor.Spinning() != 0; try++ {
			if try == 5000 {
				searching, sleeping := pfor.TaskIdle()
				t.Fatalf("GOMAXPROCS=%d: %d helpers counted spinning 5 s after the last call (%d workers searching, %d sleeping); want 0",
					procs, pfor.Spinning(), searching, sleeping)
			}
			time.Sleep(time.Millisecond)
		}
	}
}
