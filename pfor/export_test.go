package pfor

import (
	"math"
	"testing"
	"time"
)

// Helpers reports how many helper goroutines the pool has running: its
// workers and its extra helpers.
func Helpers() int {
	thePool.mu.Lock()
	defer thePool.mu.Unlock()
	return int(thePool.live.Load()) + thePool.nextra
}

// ClaimsPastFullJob posts a job of 2 slots whose slots are all claimed, as a
// long call's job is while it runs, lets the pool's claim walk past it
// rounds times (as helpers do after every short call), withdraws it, and
// returns its next unclaimed slot, which must still be 2.
func ClaimsPastFullJob(rounds int) int {
	j := &job{slots: 2, wake: make(chan struct{}, 1)}
	j.claims.Store(2<<32 | 2)
	e := thePool.post(j, 0)
	for range rounds {
		if k, _ := thePool.claim(0); k == j {
			panic("pfor: claim handed out a slot of a full job")
		}
	}
	thePool.unpost(e)
	return int(uint32(j.claims.Load()))
}

// SetLate puts the pool in the late state (see late.go), or takes it out of
// it, until the test ends. The test must not run in parallel with others.
func SetLate(t testing.TB, on bool) {
	clearLate()
	if on {
		lateHelpers.until.Store(math.MaxInt64)
	}
	t.Cleanup(clearLate)
}

func clearLate() {
	lateHelpers.streak.Store(0)
	lateHelpers.until.Store(0)
	lateHelpers.ended.Store(0)
	lateHelpers.window.Store(0)
}

// EndLate ends the late state as if its window had passed ago.
func EndLate(ago time.Duration) {
	lateHelpers.until.Store(0)
	lateHelpers.ended.Store(now() - int64(ago))
}

// LateWindow is the late state's last window.
func LateWindow() time.Duration { return time.Duration(lateHelpers.window.Load()) }

// The late state's first and longest windows.
const (
	LateWindowFirst = lateWindow
	LateWindowMax   = lateWindowMax
)

// NoteCall records an adaptive call whose helpers were late or not, as a
// call does, and reports whether the pool is then in the late state.
func NoteCall(late bool) bool {
	noteCall(late)
	return isLate()
}

// LateSigns is how many calls in a row with late helpers enter the state.
const LateSigns = lateSigns

// IsLate reports whether calls of the default partitioner start on the
// caller alone now.
func IsLate() bool { return isLate() }

// PostedJobs reports how many entries of the pool's posted jobs hold a job.
func PostedJobs() int {
	n := 0
	for i := range thePool.high.Load() {
		if thePool.posted[i].Load() != nil {
			n++
		}
	}
	return n
}
