package pfor

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Lagging helpers.
//
// When the process has more busy threads than the machine has free cores (a
// neighbour process burning a core), the operating system shares cores between threads in slices of 0.1 ms to a few ms. A
// helper whose thread is off its core while it holds a batch holds up the
// call until it runs again, and a helper that spins between calls takes a
// share of a core from the caller. That costs little to a call of
// milliseconds and many times over to a call of tens of microseconds: with
// a process burning one of two cores, a loop of 1,000 items of 10 ns called
// back to back ran at half the speed of the sequential loop.
//
// The sign of it is the process's count of involuntary context switches (a
// thread taken off its core while it could still run). On the project's
// 2-core machine, with that loop called back to back, it grew per 10 ms by
// 1 (median; 4 at the 99th percentile) with nothing else running, by 12
// (29 at the 90th) beside a process that ran 20 µs bursts on 8% of a core,
// and by 76 (96 at the 90th) beside a process burning a core. Beside the
// bursts the loop was still faster in parallel than sequentially (26
// against 35 µs a call); beside the burner it was not (51 against 33 µs).
// So every parallel call looks at the count once sampleEvery has passed
// since the last look, and two looks in a row that each see it grow at
// lagRate per ms and per P or more put the pool in the lagging state. (One
// fast look alone is not enough: a garbage collection or a hiccup of the
// host makes a burst now and then.) Per P: on a machine of many cores, one
// core taken by a neighbour makes as many switches as on two, and there a
// call on the caller alone would give up far more than it saves.
//
// Not seen: cores shared in steady turns of a few ms, as with a burner on
// every core or more busy Ps than cores, make few switches (2 to 8 spinning
// threads per core made 0.6-0.8 per ms here), and calls keep their helpers.
//
// The state lasts minLagWindow. Helpers that still lag when it ends (a sign
// within lagAgain of its end) make the next one twice as long, up to
// maxLagWindow, so that a neighbour that stays costs a look of a few calls
// with helpers once a second; a sign that comes later starts again at
// minLagWindow.
//
// What the state changes: calls of the default partitioner (see
// config.adapts) start on the caller alone, and start the partitioner over
// what is left only once they have run for lazyDelay (see lead). A short
// call then completes without depending on a helper, at the sequential
// loop's speed, and the helpers park, leaving the core to the caller; a
// long call still gets them, late by lazyDelay. Calls whose partitioner or
// grain promises its ranges run as always.
//
// Where the count is not available (see switches), calls never lag.
const (
	sampleEvery  = 10 * time.Millisecond  // the shortest interval between two looks at the count
	lagRate      = 2                      // involuntary switches per ms and per P that mean helpers lag
	lazyDelay    = 100 * time.Microsecond // how long a lagging call runs on the caller alone
	minLagWindow = 20 * time.Millisecond  // how long a first sign keeps the pool lagging
	maxLagWindow = time.Second            // the longest it keeps it lagging
	lagAgain     = 5 * sampleEvery        // a sign this soon after the lagging ends continues it
)

var lag struct {
	until atomic.Int64 // clock (see now) until which calls start on the caller alone

	next    atomic.Int64 // clock at which to look at the count again
	mu      sync.Mutex   // held by the goroutine looking; guards the fields below
	at      int64        // clock at the last look, 0 before the first
	seen    int64        // the count then
	window  int64        // ns the last sign of lagging kept the pool lagging
	strikes int          // looks in a row that saw the count grow fast
}

// switches returns the process's involuntary context switches so far, and
// whether the count is available; a variable so that tests can inject one.
var switches = involuntarySwitches

var epoch = time.Now()

// now returns the monotonic nanoseconds since the package's start.
func now() int64 { return int64(time.Since(epoch)) }

// lagging reports whether a call starting now should start on the caller
// alone, after looking at the count of switches if it is time to.
func lagging() bool {
	t := now()
	if t >= lag.next.Load() && lag.mu.TryLock() {
		lookAtSwitches(t)
		lag.mu.Unlock()
	}
	return t < lag.until.Load()
}

// lookAtSwitches reads the count of switches at clock t and starts or
// extends the lagging state if it grew fast enough since the last look.
// lag.mu must be held.
func lookAtSwitches(t int64) {
	lag.next.Store(t + int64(sampleEvery))
	n, ok := switches()
	if !ok {
		lag.next.Store(1<<63 - 1) // never look again
		return
	}
	if lag.at != 0 {
		grew, ms := n-lag.seen, float64(t-lag.at)/1e6
		if float64(grew) < lagRate*ms*float64(runtime.GOMAXPROCS(0)) {
			lag.strikes = 0
		} else if lag.strikes++; lag.strikes >= 2 {
			// A sign soon after the last window ended means the lag goes on:
			// look again after twice as long. Otherwise start afresh.
			if until := lag.until.Load(); until != 0 && t-until < int64(lagAgain) {
				lag.window = min(2*lag.window, int64(maxLagWindow))
			} else {
				lag.window = int64(minLagWindow)
			}
			lag.until.Store(t + lag.window)
		}
	}
	lag.at, lag.seen = t, n
}
