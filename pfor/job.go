package pfor

import "github.com/stealkit/stealkit/internal/sched"

// A job is one parallel call on the pool (internal/sched's Job) with the
// body of its entry point, which the Job calls through Body. The body comes
// first: helpers read it with the Job's first fields, so together they
// take three cache lines, provided the job starts on a line. It does: its
// size is a multiple of 64 bytes, a size class whose objects the
// allocator places on line boundaries (TestJobLayout).
type job struct {
	body loopBody
	sched.Job
}

var jobs = spare[job]{new: func() *job {
	j := new(job)
	j.Init(&j.body, wrapAny)
	return j
}}

// wrapAny is wrapPanic as a job's Wrap.
func wrapAny(call string, r any) any { return wrapPanic(call, r) }
