package distrib

import (
	"testing"
	"time"
)

// TestIdleTimeNeverBelowEndedPeriods: a worker's idle time, read at any
// instant, is at least the total of its ended idle periods, even for a
// period that starts just before the read. (Stats once read the clock
// before the word, and a period that began in between came out negative.)
func TestIdleTimeNeverBelowEndedPeriods(t *testing.T) {
	w := &Worker{pool: &Pool{start: time.Now()}}
	var ended time.Duration
	for range 1000 {
		w.idleStart()
		if got := w.idleTime(); got < ended {
			t.Fatalf("idle time %v just after a period started; want at least %v, the ended periods'", got, ended)
		}
		w.idleStop()
		got := w.idleTime()
		if got < ended {
			t.Fatalf("idle time %v after a period ended; want at least %v", got, ended)
		}
		ended = got
	}
}
