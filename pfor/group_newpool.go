package pfor

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A Pool is a task pool of its own, with a fixed number of workers and a
// distribution Policy: work stealing as in the default pool, or work
// dealing or work balancing, to compare the three on a workload. Its
// workers count what they do (see Stats).
//
//	p := pfor.NewPool(pfor.WithPolicy(pfor.Balancing))
//	defer p.Close()
//	p.Run(func(w *pfor.Worker) { r = fib(w, 30) })
//
// Inside p.Run, the Worker and everything forked through it (Join, Both,
// Worker.Go, Worker.Wait) stay on p. The package-level entry points (Run,
// Do, Group.Go, Group.Wait, Sort, SortStableFunc) always use the default
// pool, which is shared by every caller in the process: so spawn a Group's
// tasks with Worker.Go and wait with Worker.Wait inside p.Run to keep them
// on p.
//
// Why a policy is a pool and not an option of the default pool: the
// default pool is shared, and switching its policy would change how
// unrelated callers' tasks run, in the middle of their calls; its workers'
// queues would have to change type with them; and counting costs a few
// atomic adds per task that the default path does not pay (its workers
// have no counters at all, and check for a Pool's with one nil test per
// join, per Worker.Go and per task taken). A Pool is also how its workers
// can be stopped (Close), which the default pool, living for the process,
// never needs.
//
// Run may be called from several goroutines at once, each taking part as a
// guest worker while its call lasts, as with the default pool. A Pool must
// not be copied.
type Pool struct {
	tasks  *taskPool
	active atomic.Int32 // Run calls under way
	closed atomic.Bool
}

// NewPool starts a task pool: with WithWorkers(n), n-1 worker goroutines,
// the goroutine in Run making the n-th (the default n is
// runtime.GOMAXPROCS(0) at the time of the call; the pool does not follow
// later changes); with WithPolicy, the distribution policy (default
// Stealing). It panics if given an option that only loops take
// (WithPartitioner, WithGrain, WithStats, WithLabel). Close the pool to
// stop its goroutines.
func NewPool(opts ...Option) *Pool {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.part != nil || c.grain != 0 || c.stats != nil || c.label != "" {
		panic("pfor: NewPool: only WithWorkers and WithPolicy apply to a Pool")
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	p := newTaskPool()
	p.policy, p.fixed, p.start = c.policy, true, time.Now()
	p.resize(int32(c.workers) - 1)
	return &Pool{tasks: p}
}

// Run calls f on the calling goroutine with a Worker of p, as the
// package-level Run does with the default pool, and returns when f has
// returned; tasks f forks run on p's workers under p's policy. If f
// panics, Run re-raises the panic as a *PanicError after every task f
// joined has stopped. Run panics if f is nil or p is closed.
func (p *Pool) Run(f func(w *Worker)) {
	checkFunc("Pool.Run", "f", f == nil)
	p.active.Add(1) // before the look at closed: see Close
	defer p.active.Add(-1)
	if p.closed.Load() {
		panic("pfor: Pool.Run: the pool is closed")
	}
	p.tasks.run("Pool.Run", f)
}

// Close stops p's workers and returns when their goroutines have ended.
// Call it once no Run is under way and every Group whose tasks run on p
// has been waited for; Close panics if it sees a Run under way. Closing a
// closed pool does nothing.
func (p *Pool) Close() {
	if p.closed.Swap(true) {
		return
	}
	if p.active.Load() != 0 { // Run adds to active before it looks at closed
		panic("pfor: Pool.Close: Run is under way")
	}
	p.tasks.resize(0) // every worker is above the target and retires, waking if asleep
	p.tasks.exited.Wait()
}

// Stats returns what p's workers and guests have done since NewPool, as
// of some instant during the call for each worker (they may be running).
// Once every Run has returned and every Group has been waited for, the
// Spawned counts and the Ran counts have the same sum.
func (p *Pool) Stats() PoolStats {
	vs := *p.tasks.victims.Load()
	s := PoolStats{Policy: p.tasks.policy, Workers: make([]PoolWorkerStats, len(vs))}
	for i, w := range vs {
		pw := w.pol
		s.Workers[i] = PoolWorkerStats{
			Guest:    w.index < 0,
			Spawned:  pw.spawned.Load(),
			Ran:      pw.ran.Load(),
			Migrated: pw.migrated.Load(),
			Moved:    pw.moved.Load(),
			Idle:     pw.idleTime(p.tasks),
		}
	}
	return s
}

// PoolStats describes what a Pool's workers did (see Pool.Stats).
type PoolStats struct {
	Policy  Policy
	Workers []PoolWorkerStats // the pool's workers by index, then the guests, in order of their first Run
}

// PoolWorkerStats describes what one worker of a Pool did. A task is a
// forked half of a Join or Both, or a task spawned with Worker.Go (Run's
// function itself, and the half of a Join that runs at once, are not).
type PoolWorkerStats struct {
	Guest    bool          // a goroutine that took part in Run, not one of the pool's workers
	Spawned  int64         // tasks the worker forked
	Ran      int64         // tasks the worker ran, its own taken back by a Join included
	Migrated int64         // of Ran, tasks another worker forked: stolen, dealt or balanced to it
	Moved    int64         // tasks the worker moved between queues: dealt, balanced either way, or left for others when leaving Run
	Idle     time.Duration // time spent looking for a task, spinning or asleep
}

// Total returns the sums of the workers' counts and idle times; its Guest
// is false.
func (s PoolStats) Total() PoolWorkerStats {
	var t PoolWorkerStats
	for _, w := range s.Workers {
		t.Spawned += w.Spawned
		t.Ran += w.Ran
		t.Migrated += w.Migrated
		t.Moved += w.Moved
		t.Idle += w.Idle
	}
	return t
}
