package pfor

import (
	"runtime"
	"testing"
	"time"
)

// scriptLag replaces the threads' waits with *count (ns) for the rest of the
// test and clears the lagging state; the test then calls lookAtWaits with
// clock readings of its own.
func scriptLag(t *testing.T, count *int64, available bool) {
	lag.mu.Lock()
	saved := waits
	waits = func() (int64, bool) { return *count, available }
	lag.at, lag.seen, lag.window, lag.strikes = 0, 0, 0, 0
	lag.until.Store(0)
	lag.next.Store(0)
	t.Cleanup(func() {
		waits = saved
		lag.at, lag.seen, lag.window, lag.strikes = 0, 0, 0, 0
		lag.until.Store(0)
		lag.next.Store(0)
		lag.mu.Unlock()
	})
}

const ms = int64(time.Millisecond)

// fast is a growth of the waits over 10 ms that is a sign (30% of the time per P), and slow
// one that is not (5% of the time per P).
func fast() int64 { return 3 * ms * int64(runtime.GOMAXPROCS(0)) }
func slow() int64 { return ms / 2 * int64(runtime.GOMAXPROCS(0)) }

// look advances the scripted waits by grew and looks at them at clock t.
func look(count *int64, grew, t int64) {
	*count += grew
	lookAtWaits(t)
}

// TestLagNeedsTwoFastLooksInARow: one burst of waiting (a garbage
// collection, a host's hiccup) is not a sign; two looks in a row that see
// the waits grow by lagWait of the time or more are.
func TestLagNeedsTwoFastLooksInARow(t *testing.T) {
	var count int64
	scriptLag(t, &count, true)
	start := int64(time.Hour) // any clock reading after the package's start
	look(&count, 0, start)
	look(&count, fast(), start+10*ms) // a burst
	look(&count, 1, start+20*ms)      // then quiet
	if lag.until.Load() != 0 {
		t.Fatalf("one fast look started the lagging state")
	}
	look(&count, fast(), start+30*ms)
	look(&count, fast(), start+40*ms)
	if got, want := lag.until.Load(), start+40*ms+int64(minLagWindow); got != want {
		t.Fatalf("after two fast looks, lagging until %d; want %d (the look + minLagWindow)", got, want)
	}
}

// TestLagNeedsRate: a look counts as fast only if the waits grew by lagWait of the time per
// P or more since the last look, however long ago that was.
func TestLagNeedsRate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		grew     int64 // ns of waiting per look
		interval int64 // ns between looks
		lags     bool
	}{
		{"quiet", 1, 10 * ms, false},
		{"under lagWait", slow(), 10 * ms, false},
		{"30% of the time per P", fast(), 10 * ms, true},
		{"as many, over a longer time", fast(), 100 * ms, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var count int64
			scriptLag(t, &count, true)
			start := int64(time.Hour)
			for i := range int64(5) {
				look(&count, tc.grew, start+i*tc.interval)
			}
			if lags := lag.until.Load() != 0; lags != tc.lags {
				t.Errorf("%d ns of waiting every %v with GOMAXPROCS %d: lagging %v; want %v",
					tc.grew, time.Duration(tc.interval), runtime.GOMAXPROCS(0), lags, tc.lags)
			}
		})
	}
}

// TestLagWindowBacksOff: a sign that comes soon after the lagging state ends
// doubles how long the next one lasts, up to maxLagWindow; a sign long after
// starts again from minLagWindow.
func TestLagWindowBacksOff(t *testing.T) {
	var count int64
	scriptLag(t, &count, true)
	clock := int64(time.Hour)
	signAt := func(t int64) { // two fast looks ending at t
		look(&count, 0, t-20*ms) // resets the strikes (0 switches)
		look(&count, fast(), t-10*ms)
		look(&count, fast(), t)
	}
	want := int64(minLagWindow)
	for range 8 {
		signAt(clock)
		if got := lag.until.Load() - clock; got != want {
			t.Fatalf("window %v; want %v", time.Duration(got), time.Duration(want))
		}
		clock = lag.until.Load() + 20*ms // within lagAgain of the end
		want = min(2*want, int64(maxLagWindow))
	}
	clock = lag.until.Load() + 10*int64(lagAgain)
	signAt(clock)
	if got := lag.until.Load() - clock; got != int64(minLagWindow) {
		t.Errorf("a sign long after the last window: window %v; want %v", time.Duration(got), minLagWindow)
	}
}

// TestLagWithoutWaits: where the waits are not available, calls never lag,
// and the pool stops looking.
func TestLagWithoutWaits(t *testing.T) {
	var count int64
	scriptLag(t, &count, false)
	look(&count, fast(), int64(time.Hour))
	if lag.until.Load() != 0 || lag.next.Load() != 1<<63-1 {
		t.Errorf("waits unavailable: lagging until %d, next look at %d; want 0 and never", lag.until.Load(), lag.next.Load())
	}
}
