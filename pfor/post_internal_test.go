package pfor

import (
	"testing"
	"time"
)

// parkedHelpers waits until every helper of thePool is parked and returns
// how many there are; it fails the test after a second.
func parkedHelpers(t *testing.T) int {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for {
		thePool.mu.Lock()
		idle, helpers := len(thePool.idle), thePool.helpers
		thePool.mu.Unlock()
		if idle == helpers {
			return helpers
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d helpers parked after a second; want all", idle, helpers)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPostReportsWokenHelpers: post wakes one parked helper per slot that
// helpers could take, and says how many it woke (the caller yields to them:
// see execute); helpers that are not parked are not counted.
func TestPostReportsWokenHelpers(t *testing.T) {
	Range(0, 100, func(int) {}, WithWorkers(4)) // at least 3 helpers
	for _, slots := range []int{2, 3, 8} {
		helpers := parkedHelpers(t)
		if helpers < 3 {
			t.Fatalf("%d helpers after a 4-worker call; want at least 3", helpers)
		}
		j := &job{slots: int32(slots)}
		j.next.Store(int32(slots)) // every slot taken: woken helpers find nothing
		got := thePool.post(j, 1)
		thePool.retire(j)
		if want := min(slots-1, helpers); got != want {
			t.Errorf("post of a %d-slot job with %d helpers parked woke %d; want %d", slots, helpers, got, want)
		}
	}
	// With the helpers spinning right after a call, post wakes none.
	j := &job{slots: 2}
	j.next.Store(2)
	Range(0, 100, func(int) {}, WithWorkers(2))
	thePool.mu.Lock()
	idle := len(thePool.idle)
	thePool.mu.Unlock()
	if got := thePool.post(j, 1); got > idle {
		t.Errorf("post woke %d helpers with %d parked", got, idle)
	}
	thePool.retire(j)
}
