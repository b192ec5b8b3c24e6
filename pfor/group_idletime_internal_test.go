package pfor

import (
	"testing"
	"time"
)

// TestIdleTimeNeverBelowEndedPeriods: a worker's idle time, read at any instant, is at least
// the total of its ended idle periods, even for a period that starts just before the read.
// (Stats once read the clock before the word, and a period that began in between came out
// negative.)
func TestIdleTimeNeverBelowEndedPeriods(t *testing.T) {
	p := &taskPool{start: time.Now()}
	var pw policyWorker
	var ended time.Duration
	for range 1000 {
		pw.idleStart(p)
		if got := pw.idleTime(p); got < ended {
			t.Fatalf("idle time %v just after a period started; want at least %v, the ended periods'", got, ended)
		}
		pw.idleStop(p)
		got := pw.idleTime(p)
		if got < ended {
			t.Fatalf("idle time %v after a period ended; want at least %v", got, ended)
		}
		ended = got
	}
}
