package pfor

import (
	"context"
	"runtime/trace"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/ctxerr"
	"github.com/stealkit/stealkit/internal/monotime"
	"github.com/stealkit/stealkit/internal/sched"
)

// Late helpers.
//
// When another process keeps a core busy, the operating system takes the
// pool's threads off their cores for slices of milliseconds. A helper taken
// off while it holds a batch holds up a call of microseconds many times
// over, and helpers that spin between calls take a share of the caller's
// core. The pool sees this from inside, at no cost to a call that goes
// well: the caller of a call whose batches are the partitioner's to size
// (Auto with no grain, see config.adapts) runs out of work and has to block,
// in its slot waiting for a range another slot holds or in join, or runs
// a helper's slot itself, instead of finishing with its helpers (see
// sched.Job.Drive). A call whose caller ran the slot of a helper that its
// post woke from sleep neither counts nor breaks the row: a thread off its
// core sleeps as far as the pool can tell, but so does a helper that is
// only slow to wake, and every helper sleeps after a late window.
// lateSigns such calls in a row put the pool in
// the late state for a window, extended by every later sign. Meanwhile
// those calls start on the caller alone (see solo) and bring in helpers for
// what is left after soloFor: a short call completes at about the
// sequential loop's speed, without waiting for a thread the operating
// system has put aside, and a long one is parallel after soloFor. Calls
// whose partitioner or grain promises its ranges run as always.
//
// The state ends when its window has passed, and its row of signs with
// it. Calls in it do not post at first, so a neighbour that stays costs a
// few calls with helpers per window, which find it again. The window
// adapts to how long lateness lasts: a state that starts again within a
// window of the last one's end has twice the window (up to lateWindowMax),
// so a neighbour that stays is probed seldom; one that starts later has
// lateWindowMin, so that a short spell (a thread held up once) costs the
// calls after it little of their helpers' speed.
const (
	lateSigns     = 8                     // calls in a row with late helpers that enter the state
	lateWindowMin = 2 * time.Millisecond  // the window of a state that starts long after the last
	lateWindowMax = 32 * time.Millisecond // the most a window doubles to
)

// How long a call in the state runs alone, and how long a batch of solo
// should take. Variables so that a benchmark run under valgrind, which
// runs the items many times slower, can stretch them alike.
var (
	soloFor   = 100 * time.Microsecond
	soloBatch = 10 * time.Microsecond
)

// soloGrowth bounds how fast solo's batches grow: a batch has at most
// soloGrowth times the items of the one before, so that it runs not much
// longer than that one while the clock has not yet shown what an item
// costs. The faster they grow, the fewer batches, each followed by a
// clock read, a short call takes.
const soloGrowth = 16

// lateHelpers is the pool's late state. Any call reads and writes it, with atomics
// only; a race between two calls at worst counts a sign once or twice.
var lateHelpers struct {
	streak atomic.Int32 // adaptive calls in a row whose helpers were late
	until  atomic.Int64 // clock (see monotime.Now) until which adaptive calls start alone
	window atomic.Int64 // the window of the last state to start, in nanoseconds
	ended  atomic.Int64 // clock at which the last state ended
}

// lateNow returns the clock (see monotime.Now), at least 1, if an adaptive call
// starting now should start alone, which the call's solo start takes as
// its own; else 0. A call out of the state reads no clock and calls
// nothing.
func lateNow() int64 {
	if u := lateHelpers.until.Load(); u != 0 {
		return lateAt(u)
	}
	return 0
}

// lateAt is lateNow in the late state until u, or at its end.
func lateAt(u int64) int64 {
	t := monotime.Now()
	if t < u {
		return max(t, 1)
	}
	if lateHelpers.until.CompareAndSwap(u, 0) { // the state has ended: calls read no clock until the next
		// Its row of signs ended with it: the calls after a late window
		// find the helpers asleep, and one sign must not start another.
		lateHelpers.streak.Store(0)
		lateHelpers.ended.Store(t)
	}
	return 0
}

// noteCall records how an adaptive call that posted its job went: late
// reports whether its helpers were late (see sched.Job.Drive).
func noteCall(late bool) {
	if !late {
		if lateHelpers.streak.Load() != 0 { // load first: calls that go well write nothing
			lateHelpers.streak.Store(0)
		}
		return
	}
	if lateHelpers.streak.Add(1) >= lateSigns {
		enterLate(monotime.Now())
	}
}

// enterLate starts the late state at t, the clock (see monotime.Now), or
// extends it by its window if it is on.
func enterLate(t int64) {
	w := lateHelpers.window.Load()
	if lateHelpers.until.Load() == 0 {
		if t-lateHelpers.ended.Load() < w { // lateness came back within a window: it stays
			w = min(2*w, int64(lateWindowMax))
		} else {
			w = int64(lateWindowMin)
		}
		lateHelpers.window.Store(w)
	}
	lateHelpers.until.Store(t + w) // commits the state: adaptive calls start alone
}

// solo runs [lo, hi) of a call configured as c on the caller's goroutine
// alone, as slot 0, without a job: from t, the clock (see monotime.Now), in batches
// that start at one item and grow, by at most soloGrowth times, to take
// about soloBatch each, until the range is done, a body fails, ctx is done
// or soloFor has passed. It counts in st[0] if st is not nil. It reports
// where it stopped and whether the call is over, with the call's error: a
// body's error, or ctx's if ctx was done before the range was; else the
// call goes on with a job for [next, hi). A panic in the body is re-raised
// as a *PanicError, as inline does, once the call's stats are filled in.
//
// It reads the clock after every batch but the last: a call of n items
// whose batches are all shorter than soloBatch reads it about
// log(n)/log(soloGrowth) times.
func solo(ctx context.Context, lo, hi int, c config, b *loopBody, st []sched.SlotStats, t int64) (next int, over bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			fillStats(c, nil, st)
			panic(wrapPanic(c.call, r))
		}
	}()
	if trace.IsEnabled() {
		name := "pfor"
		if c.label != "" {
			name += " " + c.label
		}
		defer trace.StartRegion(context.Background(), name).End()
	}
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	var ws *sched.SlotStats
	if st != nil {
		ws = &st[0]
	}
	deadline := t + int64(soloFor)
	for batch := 1; ; { // the items' cost is not known yet: one may take long
		if done != nil {
			select {
			case <-done:
				return lo, true, ctxerr.Of(ctx)
			default:
			}
		}
		end := lo + int(min(uint64(batch), uint64(hi)-uint64(lo))) // hi-lo may overflow int
		if err := soloCall(b, lo, end, ws); err != nil {
			return end, true, err
		}
		if end == hi {
			return hi, true, nil // no clock read after the last batch
		}
		t1 := monotime.Now()
		if t1 >= deadline {
			return end, false, nil
		}
		// The next batch takes about soloBatch at the speed of this one,
		// with at most soloGrowth times as many items.
		batch = int(min(max(int64(end-lo)*int64(soloBatch)/max(t1-t, 1), 1), soloGrowth*int64(batch), 1<<16))
		lo, t = end, t1
	}
}

// soloCall runs b over [lo, hi) as slot 0 and counts it in ws, if not nil,
// as one chunk (sched.SlotStats.Chunk).
func soloCall(b *loopBody, lo, hi int, ws *sched.SlotStats) error {
	if ws == nil {
		return b.Call(0, lo, hi)
	}
	defer ws.Chunk(time.Now(), hi-lo)
	return b.Call(0, lo, hi)
}
