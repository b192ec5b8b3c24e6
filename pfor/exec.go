package pfor

import (
	"context"
	"fmt"
	"runtime/pprof"

	"github.com/stealkit/stealkit/internal/ctxerr"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/internal/sched"
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
		if err := ctxerr.Of(ctx); err != nil {
			return err
		}
	}
	slots := c.slots(lo, hi)
	if slots == 0 {
		fillStats(c, nil, nil)
		return nil
	}
	if slots == 1 {
		return inline(lo, hi, c, b)
	}
	var st []sched.SlotStats
	if c.stats != nil {
		st = make([]sched.SlotStats, slots)
	}
	adapts := c.adapts()
	if adapts {
		if t := lateNow(); t != 0 { // start on the caller alone (see late.go)
			next, over, err := solo(ctx, lo, hi, c, &b, st, t)
			if over { // no job, no partitioner: the call ran on the caller alone
				if st != nil {
					fillStats(c, nil, st)
				}
				return err
			}
			lo = next
		}
	}
	j := jobs.get()
	j.body, j.Slots, j.Call = b, int32(slots), c.call
	j.SetBody(j.body.sched())
	j.Stats = st
	if c.label != "" {
		j.Label = "pfor " + c.label
		j.Labels, j.Labeled = pprof.Labels("loop", c.label), true
	}
	if ctx != nil {
		j.SetContext(ctx)
	}
	p := c.partitioner()
	run := p.Start(lo, hi, int(slots))
	if run == nil {
		panic(fmt.Sprintf("pfor: %s: partitioner %q: Start(%d, %d, %d) returned a nil Run", c.call, p.Name(), lo, hi, slots))
	}
	j.Start(run)
	late, unknown := j.Drive(thePool.Pool, thePool.Post(&j.Job, int(slots)-1))
	if adapts && !unknown {
		noteCall(late)
	}
	err := j.result(c)
	j.Reset()
	j.body = loopBody{}
	jobs.put(j)
	return err
}

// maxSlots is the most worker slots a call has, whatever WithWorkers asks:
// a job counts its slots in 32 bits, and a partitioner keeps state for each.
const maxSlots = 1 << 16

// slots returns how many worker slots a call over [lo, hi) has: c.workers,
// but at most one per item (per grain, with a grain), at most maxSlots, and
// none for an empty range.
func (c config) slots(lo, hi int) uint64 {
	n := uint64(hi) - uint64(lo)
	if c.grain > 0 && n > 0 {
		n = (n-1)/uint64(c.grain) + 1
	}
	return min(uint64(c.workers), n, maxSlots)
}

// result fills in the caller's Stats, if it asked for them, and returns
// what the finished job returns: see execute.
func (j *job) result(c config) error {
	fillStats(c, j.Run, j.Stats)
	p, err := j.Outcome()
	if p != nil {
		panic(p)
	}
	return err
}

// inline runs the whole range as one chunk on the caller's goroutine.
func inline(lo, hi int, c config, b loopBody) (err error) {
	defer func() {
		if r := recover(); r != nil {
			panic(wrapPanic(c.call, r))
		}
	}()
	if c.stats == nil {
		return b.Call(0, lo, hi)
	}
	st := make([]sched.SlotStats, 1)
	err = soloCall(&b, lo, hi, &st[0])
	fillStats(c, nil, st)
	return err
}

func fillStats(c config, run partition.Run, st []sched.SlotStats) {
	if c.stats == nil {
		return
	}
	*c.stats = Stats{Partitioner: c.part.Name()}
	if st == nil {
		return
	}
	c.stats.Workers = make([]WorkerStats, len(st))
	for w := range st {
		c.stats.Workers[w] = WorkerStats{Items: st[w].Items, Chunks: st[w].Chunks, Busy: st[w].Busy}
	}
	if sr, ok := run.(partproto.StealingRun); ok {
		for w := range c.stats.Workers {
			cn := sr.Counts(w)
			c.stats.Workers[w].Steals, c.stats.Workers[w].FailedSteals = cn.Steals, cn.FailedSteals
		}
	}
}

func checkRange(call string, lo, hi int) {
	if hi < lo {
		panic(fmt.Sprintf("pfor: %s(%d, %d): hi < lo", call, lo, hi))
	}
}

// checkCtx panics if ctx is nil, as the standard library's context
// functions do for a nil parent.
func checkCtx(call string, ctx context.Context) {
	if ctx == nil {
		panic(fmt.Sprintf("pfor: %s: ctx is nil; use context.Background()", call))
	}
}

func checkFunc(call, what string, isNil bool) {
	if isNil {
		panic(fmt.Sprintf("pfor: %s: %s is nil", call, what))
	}
}
