package pfor

import (
	"runtime/trace"
	"sync/atomic"
	"time"

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
// sched.Job.Drive). lateSigns such calls in a row put the pool in
// the late state for lateWindow, extended by every later sign. Meanwhile
// those calls start on the caller alone (see solo) and bring in helpers for
// what is left after soloFor: a short call completes at about the
// sequential loop's speed, without waiting for a thread the operating
// system has put aside, and a long one is parallel after soloFor. Calls
// whose partitioner or grain promises its ranges run as always.
//
// The state ends lateWindow after the last sign. Calls in it do not post at
// first, so a neighbour that stays costs a few calls with helpers per
// window, which find it again.
const (
	lateSigns  = 8                     // calls in a row with late helpers that enter the state
	lateWindow = 20 * time.Millisecond // how long a sign keeps the state
)

// How long a call in the state runs alone, and how long a batch of solo
// should take. Variables so that a test run under a slow instrumented
// machine (valgrind) can stretch them as it stretches the items.
var (
	soloFor   = 100 * time.Microsecond
	soloBatch = 10 * time.Microsecond
)

// lateHelpers is the pool's late state. Any call reads and writes it, with atomics
// only; a race between two calls at worst counts a sign once or twice.
var lateHelpers struct {
	streak atomic.Int32 // adaptive calls in a row whose helpers were late
	until  atomic.Int64 // clock (see now) until which adaptive calls start alone
}

var epoch = time.Now()

// now returns the monotonic nanoseconds since the package's start.
func now() int64 { return int64(time.Since(epoch)) }

// isLate reports whether an adaptive call starting now should start alone.
func isLate() bool {
	u := lateHelpers.until.Load()
	if u == 0 {
		return false
	}
	if now() < u {
		return true
	}
	lateHelpers.until.CompareAndSwap(u, 0) // the state has ended: calls read no clock until the next
	return false
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
		lateHelpers.until.Store(now() + int64(lateWindow)) // commits the state: adaptive calls start alone
	}
}

// solo runs [lo, hi) on the caller's goroutine alone, as slot 0, in batches
// that start at one item and grow to take about soloBatch each, until the
// range is done, the job stops or soloFor has passed, and returns where it
// stopped. A panic in the body stops the job, as in sched.Job.RunSlot.
func (j *job) solo(lo, hi int) (next int) {
	defer func() {
		if r := recover(); r != nil {
			j.Panicked(r)
			next = hi
		}
	}()
	if trace.IsEnabled() {
		defer j.Region().End()
	}
	var ws *sched.SlotStats
	if j.Stats != nil {
		ws = &j.Stats[0]
	}
	batch, t := 1, now() // the items' cost is not known yet: one may take long
	deadline := t + int64(soloFor)
	for lo < hi && t < deadline {
		if j.Stopped() {
			return lo
		}
		end := lo + int(min(uint64(batch), uint64(hi)-uint64(lo))) // hi-lo may overflow int
		if err := j.Process(0, lo, end, nil, ws); err != nil {
			j.Fail(err, nil)
			return lo
		}
		t1 := now()
		// The next batch takes about soloBatch at the speed of this one,
		// with at most four times as many items.
		batch = int(min(max(int64(end-lo)*int64(soloBatch)/max(t1-t, 1), 1), 4*int64(batch), 1<<16))
		lo, t = end, t1
	}
	return lo
}
