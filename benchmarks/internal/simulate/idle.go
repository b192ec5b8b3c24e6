package simulate

import (
	"fmt"
	"runtime"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// This file times what a worker that finds no work costs: a Next that finds nothing (every
// worker's last Next, and the start of each poll) and an idle worker's poll. A Next that
// finds nothing does less than a take: static's looks at one flag, the shared cursors' load
// the cursor, and the stealing runs' find their worker's range empty and nobody listed to
// steal from, without reading the clock (see partition's stealRun.Next).

// idleRange is the length of the runs these trials start, and idleCalls how many Nexts or
// polls a trial times.
const (
	idleRange = 1000
	idleCalls = 1 << 12
)

// emptyNexts times idleCalls Nexts of worker 0 on a drained run of p (see drained): what a
// worker's last Next costs, its steal attempts aside (the simulation charges each of them,
// see Model.FailNs).
func emptyNexts(p impls.Partitioner) (time.Duration, float64) {
	run := drained(p)
	t0 := time.Now()
	for range idleCalls {
		run.Next(0)
	}
	d := time.Since(t0)
	release(run)
	return d, idleCalls
}

// drained returns a 2-worker run of p that both workers have drained, one after the other,
// so that a Next finds nothing and nobody listed to steal from.
func drained(p impls.Partitioner) partition.Run {
	run := p.New(nil).Start(0, idleRange, 2)
	for w := range 2 {
		for _, _, ok := run.Next(w); ok; _, _, ok = run.Next(w) {
		}
	}
	return run
}

// polls times idleCalls polls of an idle worker on a held run of p (see held), as pfor's
// slots make them (sched's Job.runSlot): a Next that finds nothing, Idle, and a runtime.Gosched.
func polls(p impls.Partitioner) (time.Duration, float64) {
	run := held(p)
	t0 := time.Now()
	for range idleCalls {
		run.Next(0)
		run.Idle(0)
		runtime.Gosched()
	}
	d := time.Since(t0)
	release(run)
	return d, idleCalls
}

// held returns a 2-worker run of p, which must split (see splits), in which worker 0 is idle:
// worker 1 has taken its first batch and holds it, and worker 0 has drained its block and
// stolen the rest of worker 1's range, so that worker 0's Next finds nothing and nobody
// listed, while its Idle says that worker 1 may give some back.
func held(p impls.Partitioner) partproto.SplittingRun {
	run := p.New(nil).Start(0, idleRange, 2).(partproto.SplittingRun)
	run.Next(1)
	for _, _, ok := run.Next(0); ok; _, _, ok = run.Next(0) {
	}
	if !run.Idle(0) {
		panic(fmt.Sprintf("simulate: held(%s): worker 0 is not idle while worker 1 holds its first batch", p.Name))
	}
	return run
}

// splits reports whether p's runs split (partproto.SplittingRun): whether its idle workers
// poll.
func splits(p impls.Partitioner) bool {
	_, ok := p.New(nil).Start(0, 1, 1).(partproto.SplittingRun)
	return ok
}

// release releases run, if it can be released, for a later Start to reuse.
func release(run partition.Run) {
	if r, ok := run.(partproto.Releaser); ok {
		r.Release()
	}
}
