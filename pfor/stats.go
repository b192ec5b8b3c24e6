package pfor

import (
	"fmt"
	"strings"
	"time"
)

// Stats describes how one parallel call went, worker by worker (see
// WithStats).
type Stats struct {
	Partitioner string        // the partitioner's Name
	Workers     []WorkerStats // one per worker slot
}

// WorkerStats describes one worker slot of a call: the work done in it by
// the goroutine that ran it (slot 0 is the caller's, and the caller also
// runs every slot no helper claimed). A partitioner that does not steal
// leaves Steals and FailedSteals zero.
type WorkerStats struct {
	Items        int64         // indices processed
	Chunks       int64         // ranges handed to the body
	Steals       int64         // successful steals (stealing partitioners)
	FailedSteals int64         // steal attempts that found nothing or lost a race
	Busy         time.Duration // time spent in the body
}

// Imbalance returns the busiest worker's busy time divided by the mean: 1 is
// perfect balance, 2 with two workers means one did all the work. It
// returns 1 when no worker was busy, as for a zero Stats or a call with no
// work.
func (s *Stats) Imbalance() float64 {
	var sum, most time.Duration
	for _, w := range s.Workers {
		sum += w.Busy
		most = max(most, w.Busy)
	}
	if sum == 0 {
		return 1
	}
	return float64(most) * float64(len(s.Workers)) / float64(sum)
}

// String formats the statistics as a small table.
func (s *Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "partitioner %s, imbalance %.2f\n", s.Partitioner, s.Imbalance())
	for w, ws := range s.Workers {
		fmt.Fprintf(&b, "worker %d: %d items in %d chunks, %d steals (%d failed), busy %v\n",
			w, ws.Items, ws.Chunks, ws.Steals, ws.FailedSteals, ws.Busy)
	}
	return b.String()
}
