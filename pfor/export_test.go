package pfor

import (
	"math"
	"testing"
	"time"
)

// Helpers reports how many helper goroutines the pool has running: its
// workers and its extra helpers.
func Helpers() int { return thePool.Helpers() }

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
	lateHelpers.window.Store(0)
	lateHelpers.ended.Store(0)
}

// NoteCall records an adaptive call whose helpers were late or not, as a
// call does, and reports whether the pool is then in the late state.
func NoteCall(late bool) bool {
	noteCall(late)
	return IsLate()
}

// ExpireLate ends the late state's window now, as its clock would.
func ExpireLate() { lateHelpers.until.Store(1) }

// LateWindow returns the window of the last late state to start.
func LateWindow() time.Duration { return time.Duration(lateHelpers.window.Load()) }

// AgeLate moves the end of the last late state d into the past.
func AgeLate(d time.Duration) { lateHelpers.ended.Add(-int64(d)) }

// LateWindowMin and LateWindowMax bound the late state's window.
const LateWindowMin, LateWindowMax = lateWindowMin, lateWindowMax

// LateStreak returns how many calls in a row have had late helpers.
func LateStreak() int { return int(lateHelpers.streak.Load()) }

// LateSigns is how many calls in a row with late helpers enter the state.
const LateSigns = lateSigns

// IsLate reports whether calls of the default partitioner start on the
// caller alone now.
func IsLate() bool { return lateNow() != 0 }

// Asleep reports whether some pool worker sleeps now, as of some instant
// during the call: a loop call posted then wakes one.
func Asleep() bool {
	_, sleeping := thePool.IdleCounts()
	return sleeping > 0
}

// PostedJobs reports how many entries of the pool's posted jobs hold a job.
func PostedJobs() int { return thePool.Loops().Len() }

// SlotsOf returns how many worker slots a call over [lo, hi) with these
// options has.
func SlotsOf(lo, hi int, opts ...Option) uint64 {
	c := config{workers: 1}
	for _, o := range opts {
		o(&c)
	}
	return c.slots(lo, hi)
}

// MaxSlots is the most worker slots a call has.
const MaxSlots = maxSlots

// StretchSolo multiplies how long a call in the late state runs alone, and
// how long its batches should take, by k until the test ends: under
// valgrind, which runs the items many times slower, a call then runs the
// batches it runs natively.
func StretchSolo(t testing.TB, k int) {
	f, b := soloFor, soloBatch
	soloFor, soloBatch = f*time.Duration(k), b*time.Duration(k)
	t.Cleanup(func() { soloFor, soloBatch = f, b })
}
