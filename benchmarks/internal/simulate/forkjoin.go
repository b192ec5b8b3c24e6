package simulate

import (
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
)

// forkJoinTimes times calls of pfor.Chunks over two items on two workers with the static
// partitioner, so that the caller runs item 0 and a helper item 1 (see timeCall). For each
// batch of calls it keeps the medians of their start, fork and join.
type forkJoinTimes struct {
	starts, forks, joins []float64 // one median per batch
}

// forkJoinBatch is how many calls a batch times.
const forkJoinBatch = 64

// CallTimes are the times of one 2-worker pfor call, in nanoseconds from the call.
type CallTimes struct {
	StartNs float64 `json:"start_ns"` // the caller's slot starts (the run, the job, posting it)
	ForkNs  float64 `json:"fork_ns"`  // the helper's slot starts (a helper seeing the job and claiming its slot)
	JoinNs  float64 `json:"join_ns"`  // from the later slot's end to the call's return
	// Cold is set for a call made after the pool had been idle long enough for its helpers
	// to park (see coldCall).
	Cold bool `json:"cold,omitempty"`
}

// timeCalls times n calls with p back to back.
func timeCalls(n int, p partition.Partitioner) []CallTimes {
	calls := make([]CallTimes, 0, n)
	for range n {
		calls = append(calls, timeCall(p))
	}
	return calls
}

// timeCall times one call with p, which must hand each of the two workers one item. Item 0
// waits (at most a millisecond) until item 1 has started, so that the helper, not the caller,
// runs item 1.
func timeCall(p partition.Partitioner) CallTimes {
	var t1, e0, e1 atomic.Int64 // ns since t0, +1 so that 0 means not yet
	var s0 int64
	t0 := time.Now()
	pfor.Chunks(0, 2, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if i == 1 {
				t1.Store(int64(time.Since(t0)) + 1)
				e1.Store(int64(time.Since(t0)) + 1)
				continue
			}
			s0 = int64(time.Since(t0))
			for t1.Load() == 0 && time.Since(t0) < time.Millisecond {
			}
			e0.Store(int64(time.Since(t0)) + 1)
		}
	}, pfor.WithWorkers(2), pfor.WithPartitioner(p))
	ret := float64(time.Since(t0))
	return CallTimes{StartNs: float64(s0), ForkNs: float64(t1.Load() - 1), JoinNs: ret - float64(max(e0.Load(), e1.Load())-1)}
}

// coldCall times one call made after the caller has kept its core busy for coldIdle while the
// pool had nothing to do, as the first call of a measured repetition follows a calibration
// trial and the inputs' reset: the pool's helpers have parked, and the helper's start includes
// waking a thread, and on a virtual machine the virtual CPU it sleeps on.
func coldCall(p partition.Partitioner) CallTimes {
	for t := time.Now(); time.Since(t) < coldIdle; {
	}
	c := timeCall(p)
	c.Cold = true
	return c
}

// coldIdle is how long a cold call's pool idles first: far longer than pfor's helpers spin
// before they park, and about as long as a reset of the largest inputs. coldCalls is how many
// cold calls a Calibrator's ColdCalls times.
const (
	coldIdle  = time.Millisecond
	coldCalls = 3
)

// batch times one batch of calls, keeps their medians and returns them.
func (fj *forkJoinTimes) batch() []CallTimes {
	calls := timeCalls(forkJoinBatch, partition.Static())
	var starts, forks, joins []float64
	for _, c := range calls {
		starts = append(starts, c.StartNs)
		forks = append(forks, c.ForkNs)
		joins = append(joins, c.JoinNs)
	}
	fj.starts = append(fj.starts, median(starts))
	fj.forks = append(fj.forks, median(forks))
	fj.joins = append(fj.joins, median(joins))
	return calls
}

// medians returns the medians of the batches' medians: start, fork and join.
func (fj *forkJoinTimes) medians() (start, fork, join float64) {
	return median(fj.starts), median(fj.forks), median(fj.joins)
}

// ColdCalls times coldCalls calls of partitioner p (see forkJoinPartitioner), each made after
// the pool has idled (see coldCall), so that a caller can predict the first call of a
// measured repetition of p with them (see Repetitions). It does nothing and returns nil with
// fewer than 2 procs.
func (cal *Calibrator) ColdCalls(p string) []CallTimes {
	if len(cal.plans) < 2 {
		return nil
	}
	fp := forkJoinPartitioner(p)
	calls := make([]CallTimes, 0, coldCalls)
	for range coldCalls {
		calls = append(calls, coldCall(fp))
	}
	return calls
}

// ForkJoinBatch times a batch of 2-worker pfor calls of partitioner p (see
// forkJoinPartitioner) and returns each call's times, so that a caller can predict a
// measurement of p with the calls made next to it (see Repetitions). A batch timed with the
// static partitioner also counts for the workload's own start, fork and join (see ForkJoin).
// It does nothing and returns nil with fewer than 2 procs.
func (cal *Calibrator) ForkJoinBatch(p string) []CallTimes {
	if len(cal.plans) < 2 {
		return nil
	}
	if fp := forkJoinPartitioner(p); fp.Name() != "static" {
		return timeCalls(forkJoinBatch, fp)
	}
	return cal.fj.batch()
}

// forkJoinPartitioner returns the partitioner whose calls time the start, fork and join of
// partitioner p's: p itself if its runs steal (partproto.StealingRun), the static partitioner
// otherwise. A stealing run costs more around its items than a static one: its Start makes a
// range per worker, the helper's first take pulls its worker's lines from the caller's core,
// and a worker's last Next tries to steal from the others. On tiny, 2-worker calls with a
// grain of 500 (each worker one take, as static) took clearly longer than static's, and
// calls over two items started later in the caller and in the helper and joined later. The
// partitioners with a shared cursor keep the static calls: their Start makes one cursor, and
// on two items dynamic's chunk of 64 would give both to the caller.
func forkJoinPartitioner(p string) partition.Partitioner {
	if q, ok := partitionerNamed(p); ok {
		fp := q.New(nil)
		if _, ok := fp.Start(0, 2, 2).(partproto.StealingRun); ok {
			return fp
		}
	}
	return partition.Static()
}

// ForkJoin returns the start, fork and join of a 2-worker call (see Machine) from the batches
// made so far, the medians of their medians, and reports whether there was one. They replace
// the Machine's in the workload's predictions: on a shared virtual machine the machine's,
// timed in the first second of the process, once read a start and a fork tens of times their
// usual figures, while the workload's calls, measured later, ran at the usual speed.
func (cal *Calibrator) ForkJoin() (start, fork, join float64, ok bool) {
	if len(cal.fj.starts) == 0 {
		return 0, 0, 0, false
	}
	start, fork, join = cal.fj.medians()
	return start, fork, join, true
}
