package distrib

import "time"

// PoolStats describes what a Pool's workers did (see Pool.Stats).
type PoolStats struct {
	Policy  Policy        // the pool's distribution policy
	Workers []WorkerStats // the pool's workers by index, then the guests, in order of their first Run
}

// WorkerStats describes what one worker of a Pool did. A task is a forked
// half of a Both (Run's function itself, and the half of a Both that runs
// at once, are not).
type WorkerStats struct {
	Guest    bool          // a goroutine that took part in Run, not one of the pool's workers
	Spawned  int64         // tasks the worker forked
	Ran      int64         // tasks the worker ran, its own taken back by a Both included
	Migrated int64         // of Ran, tasks another worker forked: stolen, dealt or balanced to it
	Moved    int64         // tasks the worker moved between queues: dealt, or balanced either way
	Idle     time.Duration // time spent looking for a task, spinning or asleep
}

// Stats returns what p's workers and guests have done since NewPool, as
// of some instant during the call for each worker (they may be running).
// Once every Run has returned, the Spawned counts and the Ran counts have
// the same sum. It costs O(workers + guests).
func (p *Pool) Stats() PoolStats {
	vs := *p.victims.Load()
	s := PoolStats{Policy: p.policy, Workers: make([]WorkerStats, len(vs))}
	for i, w := range vs {
		s.Workers[i] = WorkerStats{
			Guest:    w.guest,
			Spawned:  w.spawned.Load(),
			Ran:      w.ran.Load(),
			Migrated: w.migrated.Load(),
			Moved:    w.moved.Load(),
			Idle:     w.idleTime(),
		}
	}
	return s
}

// Total returns the sums of the workers' counts and idle times; its Guest
// is false.
func (s PoolStats) Total() WorkerStats {
	var t WorkerStats
	for _, w := range s.Workers {
		t.Spawned += w.Spawned
		t.Ran += w.Ran
		t.Migrated += w.Migrated
		t.Moved += w.Moved
		t.Idle += w.Idle
	}
	return t
}

// took counts t, which w is about to run.
func (w *Worker) took(t *task) {
	w.ran.Add(1)
	if t.owner != w {
		w.migrated.Add(1)
	}
}

// Idle time is one word, so that Stats reads it consistently while the
// worker may be idle: with T the idle time of the periods that have ended
// and S the start of the current one (both in nanoseconds since the pool
// started, so T <= S), it holds T while the worker is busy and T-S-1 < 0
// while it is idle, when the idle time at instant now is now+T-S.

func (w *Worker) idleStart() {
	w.idle.Store(w.idle.Load() - int64(time.Since(w.pool.start)) - 1)
}

func (w *Worker) idleStop() {
	w.idle.Store(w.idle.Load() + 1 + int64(time.Since(w.pool.start)))
}

// idleTime returns the worker's idle time up to the instant of the call.
// The clock is read after the word: read before it, it could precede the
// start S of an idle period that began in between, and now+T-S came out
// below T, negative for a worker's first period.
func (w *Worker) idleTime() time.Duration {
	v := w.idle.Load()
	if v < 0 {
		return time.Since(w.pool.start) + time.Duration(v+1)
	}
	return time.Duration(v)
}
