package pfor

import (
	"sync"
	"sync/atomic"
	"time"
)

// Lagging helpers.
//
// When the process has more busy threads than the machine has free cores (a
// neighbour process burning a core, or more Ps than cores), the operating
// system shares cores between threads in slices of 0.1 ms to a few ms. A
// helper whose thread is off its core while it holds a batch holds up the
// call until it runs again, and a helper that spins between calls takes a
// share of a core from the caller. That costs little to a call of
// milliseconds and many times over to a call of tens of microseconds: with
// a process burning one of two cores, a loop of 1,000 items of 10 ns called
// back to back ran at half the speed of the sequential loop.
//
// The sign of it is the process's count of involuntary context switches (a
// thread taken off its core while it could still run). On the project's
// 2-core machine, with that loop on both cores, it grew by 0.1-0.2 per ms
// with nothing else running and by 5.0-5.9 per ms with a process burning a
// core; with 2 to 8 spinning threads per core and nothing else, by 0.6-0.8
// per ms. So every parallel call looks at the count once sampleEvery has
// passed since the last look, and two looks in a row that each see it grow
// by lagMin or more, at lagRate per ms or more, put the pool in the lagging
// state. (One fast look alone is not enough: a garbage collection or a
// hiccup of the host makes bursts of 15-50 switches now and then.)
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
	lagRate      = 0.5                    // involuntary switches per ms that mean helpers lag
	lagMin       = 5                      // and at least as many in the interval
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
		if grew < lagMin || float64(grew) < lagRate*ms {
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
