package pfor

import (
	"math"
	"testing"
)

// Helpers reports how many helper goroutines the pool has started.
func Helpers() int {
	thePool.mu.Lock()
	defer thePool.mu.Unlock()
	return thePool.helpers
}

// SetLagging puts the pool in the lagging state (see lag.go), or takes it out
// of it, until the test ends; meanwhile the threads' waits never show a
// sign of lagging. The test must not run in parallel with others.
func SetLagging(t testing.TB, on bool) {
	lag.mu.Lock()
	defer lag.mu.Unlock()
	saved := waits
	waits = func() (int64, bool) { return 0, true }
	lag.at, lag.strikes = 0, 0
	lag.until.Store(0)
	if on {
		lag.until.Store(math.MaxInt64)
	}
	t.Cleanup(func() {
		lag.mu.Lock()
		defer lag.mu.Unlock()
		waits = saved
		lag.at, lag.strikes = 0, 0
		lag.next.Store(0)
		lag.until.Store(0)
	})
}

// Lagging reports whether a call starting now would start on the caller
// alone, looking at the threads' waits if it is time to.
func Lagging() bool {
	lookIfDue()
	return lagged()
}
