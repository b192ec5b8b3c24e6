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
// neighbour process burning a core), the operating system shares cores
// between threads in slices of 0.1 ms to a few ms. A helper whose thread is
// off its core while it holds a batch holds up the call until it runs again,
// and a helper that spins between calls takes a share of a core from the
// caller. That costs little to a call of
// milliseconds and many times over to a call of tens of microseconds: with
// a process burning one of two cores, a loop of 1,000 items of 10 ns called
// back to back ran at half the speed of the sequential loop.
//
// The sign of it is how long the process's threads wait in the run queue
// for a core (Linux's schedstat), as a fraction of the time, per P. On the
// project's
// 2-core machine, with that loop called back to back, it was 0.2% of the
// time (median; 14% at the 90th percentile, 37% at the 99th) with nothing
// else running, 2% (8% at the 90th) beside a process running 20 µs bursts
// on 8% of a core, 35% (20% at the 10th percentile) beside a process
// burning a core, and 22% (14% at the 10th) beside two processes running
// 300 µs bursts on 75% of a core each. The loop was slower in parallel than
// sequentially beside the burner (39 against 23 µs a call) and beside the
// bursts (40 against 26 µs), and about as fast beside the light bursts. (The
// count of involuntary context switches, tried first, rose with the light
// bursts and not with the heavy ones.) So every call of the default
// partitioner looks at the sum of the threads' waits once sampleEvery has
// passed since the last look (a call that runs in parallel does so after
// posting its job, so that its helpers start meanwhile: see execute), and
// two looks in a row that each see it grow by lagWait of the time per P or
// more put the pool in the lagging state. (One look alone is not
// enough: a garbage collection or a hiccup of the host makes a burst now
// and then.) Per P: on a machine of many cores, one core taken by a
// neighbour makes one thread wait, and there a call on the caller alone
// would give up far more than it saves. A look reads every thread's
// schedstat, from files kept open between looks (see runqueueWait): 43 µs
// inside a loop of 20 µs calls on the AMD VM of 2026-11-26, 0.4% of a core
// (133 µs when each look opened every file).
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
// Where the waits are not available (see waits; other systems than Linux),
// calls never lag.
const (
	sampleEvery  = 10 * time.Millisecond  // the shortest interval between two looks at the waits
	lagWait      = 0.15                   // the fraction of the time per P the threads waited that means helpers lag
	lazyDelay    = 100 * time.Microsecond // how long a lagging call runs on the caller alone
	minLagWindow = 20 * time.Millisecond  // how long a first sign keeps the pool lagging
	maxLagWindow = time.Second            // the longest it keeps it lagging
	lagAgain     = 5 * sampleEvery        // a sign this soon after the lagging ends continues it
)

// lag is the pool's lagging state. until and next are written only by the
// goroutine that holds mu, and read by every call without it: until is the
// state itself; next is a hint, and a call that reads a stale one at worst
// tries the lock and finds the look done (see lagging).
var lag struct {
	until atomic.Int64 // clock (see now) until which calls start on the caller alone

	next    atomic.Int64 // clock at which to look at the waits again
	mu      sync.Mutex   // held by the goroutine looking; guards the fields below
	at      int64        // clock at the last look, 0 before the first
	seen    int64        // the threads' waits then, ns
	window  int64        // ns the last sign of lagging kept the pool lagging
	strikes int          // looks in a row that saw the waits grow fast
}

// waits returns how long the process's threads have waited for a core so
// far, in ns, and whether that is available; a variable so that tests can
// inject one.
var waits = runqueueWait

var epoch = time.Now()

// now returns the monotonic nanoseconds since the package's start.
func now() int64 { return int64(time.Since(epoch)) }

// lagged reports whether a call starting now should start on the caller
// alone, as the last look left the state.
func lagged() bool { return now() < lag.until.Load() }

// lookIfDue looks at the threads' waits if it is time to and no other call is
// looking.
func lookIfDue() {
	t := now()
	if t >= lag.next.Load() && lag.mu.TryLock() {
		if t >= lag.next.Load() { // no other call looked since
			lookAtWaits(t)
		}
		lag.mu.Unlock()
	}
}

// lookAtWaits reads the threads' waits at clock t and starts or extends the
// lagging state if they grew fast enough since the last look. lag.mu must
// be held.
func lookAtWaits(t int64) {
	lag.next.Store(t + int64(sampleEvery)) // publishes when the next look is due
	n, ok := waits()
	if !ok {
		lag.next.Store(1<<63 - 1) // never look again
		return
	}
	if lag.at != 0 {
		if grew := n - lag.seen; float64(grew) < lagWait*float64(t-lag.at)*float64(runtime.GOMAXPROCS(0)) {
			lag.strikes = 0
		} else if lag.strikes++; lag.strikes >= 2 {
			// A sign soon after the last window ended means the lag goes on:
			// look again after twice as long. Otherwise start afresh.
			if until := lag.until.Load(); until != 0 && t-until < int64(lagAgain) {
				lag.window = min(2*lag.window, int64(maxLagWindow))
			} else {
				lag.window = int64(minLagWindow)
			}
			lag.until.Store(t + lag.window) // commits the state: calls from now on start alone
		}
	}
	lag.at, lag.seen = t, n
}
