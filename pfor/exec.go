package pfor

import (
	"context"
	"fmt"
	"runtime/pprof"
	"runtime/trace"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// execute runs body over [lo, hi) as configured. body gets the worker slot
// that runs it, in [0, workers).
func execute(ctx context.Context, lo, hi int, c config, body func(slot, lo, hi int) error) error {
	return run(ctx, lo, hi, c, loopBody{slotted: body})
}

// run is what every entry point calls: it runs b over [lo, hi) as
// configured, on at most c.workers worker slots, and at most one slot per
// item (per grain, with a grain).
//
// It returns the first error a body returned (first in time), else, if the
// context was done before all the work had been handed out, the context's
// error. A panic in a body is re-raised as a *PanicError once every worker
// has stopped.
func run(ctx context.Context, lo, hi int, c config, b loopBody) error {
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
	slots := uint64(c.workers)
	if c.grain > 0 {
		slots = min(slots, (n-1)/uint64(c.grain)+1)
	}
	slots = min(slots, n)
	if slots == 1 {
		return inline(lo, hi, c, b)
	}
	j := jobPool.Get().(*job)
	j.body, j.slots, j.call = b, int32(slots), c.call
	if c.stats != nil {
		j.stats = &jobStats{workers: make([]slotStats, slots)}
	}
	if c.label != "" {
		j.label = "pfor " + c.label
		j.labels, j.labeled = pprof.Labels("loop", c.label), true
	}
	if ctx != nil {
		j.ctx, j.halt = ctx, ctx.Done()
	}
	adapts := c.adapts()
	if adapts && isLate() { // start on the caller alone (see late.go)
		lo = j.solo(lo, hi)
	}
	if lo < hi && !j.stop.Load() {
		j.run = c.partitioner().Start(lo, hi, int(slots))
		j.split, _ = j.run.(partproto.SplittingRun)
		j.claims.Store(slots<<32 | 1) // publishes the call: slot 0 is the caller's
		late := j.drive(thePool.post(j, int(slots)-1))
		if adapts {
			noteCall(late)
		}
	}
	err := j.result(c)
	j.reset()
	jobPool.Put(j)
	return err
}

// reset clears j after its call for the next one. Every slot has finished:
// only the caller refers to j's fields.
func (j *job) reset() {
	j.finished.Store(0)
	j.run, j.split, j.body, j.slots = nil, nil, loopBody{}, 0
	j.stop.Store(false)
	j.err, j.panic, j.canceled = nil, nil, nil
	j.cut.Store(false)
	j.ctx, j.halt = nil, nil
	j.tokens = 0
	j.call, j.label, j.labels, j.labeled = "", "", pprof.LabelSet{}, false
	j.stats, j.woke = nil, false
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
func inline(lo, hi int, c config, b loopBody) (err error) {
	defer func() {
		if r := recover(); r != nil {
			panic(wrapPanic(c.call, r))
		}
	}()
	if c.stats == nil {
		return b.call(0, lo, hi)
	}
	st := &jobStats{workers: make([]slotStats, 1)}
	err = (&job{body: b}).process(0, lo, hi, nil, &st.workers[0].WorkerStats)
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
