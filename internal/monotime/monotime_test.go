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

func TestNowCountsNanoseconds(t *testing.T) {
	const d = 2 * time.Millisecond
	t0, w0 := Now(), time.Now()
	time.Sleep(d)
	t1, w1 := Now(), time.Now()
	if got := time.Duration(t1 - t0); got < d || got < w1.Sub(w0)-time.Millisecond {
		t.Fatalf("Now advanced %v over a sleep of %v (time.Since: %v)", got, d, w1.Sub(w0))
	}
}
