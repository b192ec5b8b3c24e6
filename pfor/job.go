package pfor

import (
	"sync"

	"github.com/stealkit/stealkit/internal/sched"
)

// A job is one parallel call on the pool (internal/sched's Job) with the
// body of its entry point, which the Job calls through Body.
type job struct {
	sched.Job
	body loopBody
}

var jobPool = sync.Pool{New: func() any {
	j := new(job)
	j.Init(&j.body, wrapAny)
	return j
}}

// wrapAny is wrapPanic as a job's Wrap.
func wrapAny(call string, r any) any { return wrapPanic(call, r) }
