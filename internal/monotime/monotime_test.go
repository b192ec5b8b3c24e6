package monotime

import (
	"testing"
	"time"
)

func TestNowNeverGoesBackwards(t *testing.T) {
	prev := Now()
	for range 10_000 {
		n := Now()
		if n < prev {
			t.Fatalf("Now went backwards: %d after %d", n, prev)
		}
		prev = n
	}
}

// TestNowCountsNanoseconds: Now's readings around a sleep differ by at least
// the time.Since of readings taken inside them, and at most that of readings
// taken outside them: the same clock, in nanoseconds, however long the
// goroutine waits between the readings.
func TestNowCountsNanoseconds(t *testing.T) {
	const d = 2 * time.Millisecond
	outer0 := time.Now()
	t0 := Now()
	inner0 := time.Now()
	time.Sleep(d)
	inner := time.Since(inner0)
	t1 := Now()
	outer := time.Since(outer0)
	if got := time.Duration(t1 - t0); got < inner || got > outer || got < d {
		t.Fatalf("Now advanced %v over a sleep of %v; want between the %v inside and the %v outside its readings", got, d, inner, outer)
	}
}
