package pfor

import (
	"math"
	"testing"

	"github.com/stealkit/stealkit/internal/sched"
)

// Helpers reports how many helper goroutines the pool has running: its
// workers and its extra helpers.
func Helpers() int { return thePool.Helpers() }

// SetLate puts the pool in the late state (see late.go), or takes it out of
// it, until the test ends. The test must not run in parallel with others.
func SetLate(t testing.TB, on bool) {
	lateHelpers.streak.Store(0)
	lateHelpers.until.Store(0)
	if on {
		lateHelpers.until.Store(math.MaxInt64)
	}
	t.Cleanup(func() {
		lateHelpers.streak.Store(0)
		lateHelpers.until.Store(0)
	})
}

// NoteCall records an adaptive call whose helpers were late, on time, or
// neither (see sched.Sign), as a call does, and reports whether the pool is
// then in the late state.
func NoteCall(s sched.Sign) bool {
	noteCall(s)
	return isLate()
}

// GrowPool brings the pool to GOMAXPROCS-1 workers, as a call that wants
// more helpers than it has does: workers above retire.
func GrowPool() { thePool.Grow() }

// Spinning reports how many of the pool's helpers are spinning, looking
// for work.
func Spinning() int { return thePool.Spinning() }

// LateSigns is how many calls in a row with late helpers enter the state.
const LateSigns = lateSigns

// IsLate reports whether calls of the default partitioner start on the
// caller alone now.
func IsLate() bool { return isLate() }

// PostedJobs reports how many entries of the pool's posted jobs hold a job.
func PostedJobs() int { return thePool.Loops().Len() }
