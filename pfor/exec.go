package pfor

import (
	"context"
	"fmt"
	"runtime/pprof"
	"runtime/trace"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// execute runs body over [lo, hi) as configured and is what every entry
// point calls. body gets the worker slot that runs it, in [0, workers).
//
// It returns the first error a body returned (first in time), else, if the
// context was done before all the work had been handed out, the context's
// error. A panic in a body is re-raised as a *PanicError once every worker
// has stopped.
func execute(ctx context.Context, lo, hi int, c config, body func(slot, lo, hi int) error) error {
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	n := uint64(hi) - uint64(lo)
	if n == 0 {
		fillStats(c, nil, nil)
		return nil
	}
	if c.workers == 1 || n == 1 || (c.grain > 0 && n <= uint64(c.grain)) {
		return inline(lo, hi, c, body)
	}
	j := &job{
		body:  body,
		call:  c.call,
		slots: int32(c.workers),
		wake:  make(chan struct{}, 1),
	}
	j.nudge.L = &j.mu
	j.next.Store(1)
	if c.stats != nil {
		j.stats = &jobStats{workers: make([]slotStats, c.workers)}
	}
	if c.label != "" {
		j.label = "pfor " + c.label
		j.labels = pprof.WithLabels(context.Background(), pprof.Labels("loop", c.label))
	}
	if ctx != nil {
		j.ctx, j.halt = ctx, ctx.Done()
	}
	// Only the default partitioner's calls look at the threads' waits (see
	// lag.go): the others' do not depend on them. A lagging call, which runs on
	// the caller alone first anyway, looks at once; others after posting their
	// job, so that their helpers start meanwhile (a look took up to 200 µs).
	adapts := c.adapts()
	alone := adapts && lagged()
	if alone { // helpers lag: start on the caller alone (see lag.go)
		lookIfDue()
		thePool.grow(c.workers - 1)
		lo = j.lead(lo, hi, now()+int64(lazyDelay))
		if lo == hi || j.stop.Load() {
			return j.result(c)
		}
	}
	j.run = c.partitioner().Start(lo, hi, c.workers)
	thePool.post(j, c.workers-1)
	if adapts && !alone {
		lookIfDue()
	}
	j.drive()
	return j.result(c)
}

// result fills in the caller's Stats, if it asked for them, and returns
// what the finished job returns: see execute.
func (j *job) result(c config) error {
	fillStats(c, j.run, j.stats)
	if r, ok := j.run.(partproto.Releaser); ok { // every slot has returned
		r.Release()
	}
	if j.panic != nil {
		panic(j.panic)
	}
	if j.err != nil {
		return j.err
	}
	if j.cut.Load() {
		return j.canceled
	}
	return nil
}

// inline runs the whole range as one chunk on the caller's goroutine.
func inline(lo, hi int, c config, body func(slot, lo, hi int) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			panic(wrapPanic(c.call, r))
		}
	}()
	if c.stats == nil {
		return body(0, lo, hi)
	}
	st := &jobStats{workers: make([]slotStats, 1)}
	err = (&job{body: body}).process(0, lo, hi, nil, &st.workers[0].WorkerStats)
	fillStats(c, nil, st)
	return err
}

func fillStats(c config, run partition.Run, st *jobStats) {
	if c.stats == nil {
		return
	}
	*c.stats = Stats{Partitioner: c.part.Name()}
	if st == nil {
		return
	}
	c.stats.Workers = make([]WorkerStats, len(st.workers))
	for w := range st.workers {
		c.stats.Workers[w] = st.workers[w].WorkerStats
	}
	if sr, ok := run.(partproto.StealingRun); ok {
		for w := range c.stats.Workers {
			cn := sr.Counts(w)
			c.stats.Workers[w].Steals, c.stats.Workers[w].FailedSteals = cn.Steals, cn.FailedSteals
		}
	}
}

// region wraps a worker slot in a runtime/trace region when tracing is on.
func (j *job) region() func() {
	if !trace.IsEnabled() {
		return func() {}
	}
	name := j.label
	if name == "" {
		name = "pfor"
	}
	return trace.StartRegion(context.Background(), name).End
}

func checkRange(call string, lo, hi int) {
	if hi < lo {
		panic(fmt.Sprintf("pfor: %s(%d, %d): hi < lo", call, lo, hi))
	}
}

func checkFunc(call, what string, isNil bool) {
	if isNil {
		panic(fmt.Sprintf("pfor: %s: %s is nil", call, what))
	}
}
