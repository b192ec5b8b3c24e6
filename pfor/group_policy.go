package pfor

import (
	"fmt"
	"sync/atomic"
	"time"
)

// A Policy is how a Pool distributes tasks among its workers: the three
// schemes of Herlihy and Shavit's "The Art of Multiprocessor Programming"
// (chapter "Futures, Scheduling, and Work Distribution").
type Policy uint8

const (
	// Stealing: a worker pushes the tasks it forks onto its own
	// Chase-Lev deque and runs them newest first; a worker with nothing
	// to do takes the oldest task of a random other worker. Work moves
	// only when someone is idle. The default, and the policy of the
	// package-level task functions.
	Stealing Policy = iota

	// Dealing: a worker hands every task it forks to another worker,
	// round robin over the workers in the pool (work sharing), and runs
	// the tasks handed to it newest first; an idle worker waits for tasks
	// to be dealt to it. A Join takes its forked half back if that has
	// not started yet. Work moves whether or not anyone is idle.
	Dealing

	// Balancing: a worker pushes the tasks it forks onto its own queue;
	// between tasks, with probability 1/(size+1) where size is the
	// length of its queue (so always when the queue is empty), it picks a
	// random other worker and evens out their two queues, moving the
	// oldest tasks of the longer to the top of the shorter. Both queues
	// are locked for the move, in a fixed order, to avoid deadlock: by the
	// order in which the pool created the two workers (pool workers
	// first, by index, then guests). Balancing moves half the difference
	// in length, and at least one task into an empty queue, so that an
	// idle worker gets the last task of a busy one as a thief would.
	Balancing
)

// String returns "stealing", "dealing" or "balancing".
func (p Policy) String() string {
	switch p {
	case Stealing:
		return "stealing"
	case Dealing:
		return "dealing"
	case Balancing:
		return "balancing"
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// WithPolicy sets the distribution policy of a Pool made with NewPool; the
// default is Stealing. Loops (Range and friends) ignore it: they divide
// index ranges with a partition.Partitioner instead. It panics on an
// unknown policy.
func WithPolicy(p Policy) Option {
	if p > Balancing {
		panic(fmt.Sprintf("pfor: WithPolicy(%d): unknown policy", uint8(p)))
	}
	return func(c *config) { c.policy = p }
}

// A policyWorker is a Worker's part in a Pool made with NewPool: its
// counters, and under Dealing and Balancing the locked queue that replaces
// its deque. Workers of the default pool have none, so that the default
// path pays one nil check per join (see bothPool), per Worker.Go and per
// task taken for the policies, and nothing for the counting.
//
// The counters are written only by the worker that owns them (a guest's
// by the goroutine in Run) and read by Pool.Stats at any time, hence the
// atomics.
type policyWorker struct {
	q        *lockedQueue // nil under Stealing
	spawned  atomic.Int64
	ran      atomic.Int64
	migrated atomic.Int64
	moved    atomic.Int64
	idle     atomic.Int64 // packed: see idleStart
	next     int          // Dealing: where the round robin starts next
	_        cacheLinePad // the owner writes the counters all the time
}

// push queues t, forked by w, under the pool's policy.
func (pw *policyWorker) push(w *Worker, t *task) {
	t.spawner = w
	pw.spawned.Add(1)
	p := w.pool
	switch p.policy {
	case Stealing:
		w.dq.Push(t)
		p.idle.Notify()
	case Dealing:
		if v := pw.deal(w, t); v != nil {
			v.park.Unpark() // after the queue's size store: see sched.Parker
			return
		}
		pw.q.mu.Lock()
		pw.q.pushBottom(t)
		pw.q.mu.Unlock()
	case Balancing:
		pw.q.mu.Lock()
		pw.q.pushBottom(t)
		pw.q.mu.Unlock()
		p.idle.Notify()
	}
}

// deal pushes t onto the next open queue of another worker, round robin,
// and returns that worker, or nil if no other queue is open.
func (pw *policyWorker) deal(w *Worker, t *task) *Worker {
	vs := *w.pool.victims.Load()
	for range vs {
		pw.next++
		if pw.next >= len(vs) {
			pw.next = 0
		}
		v := vs[pw.next]
		if v == w {
			continue
		}
		q := v.pol.q
		q.mu.Lock()
		if q.open {
			q.pushBottom(t)
			q.mu.Unlock()
			pw.moved.Add(1)
			return v
		}
		q.mu.Unlock()
	}
	return nil
}

// pop takes w's newest own task, or nil; under Balancing it first evens
// out w's queue with a random other one, with probability 1/(size+1).
func (pw *policyWorker) pop(w *Worker) *task {
	var t *task
	if pw.q == nil {
		t = w.dq.Pop()
	} else {
		n := pw.q.Len()
		if n == 0 {
			return nil // search balances, with probability 1
		}
		if w.pool.policy == Balancing && w.random()%uint64(n+1) == 0 {
			pw.balance(w, w.randomVictim())
		}
		pw.q.mu.Lock()
		t = pw.q.popBottom()
		pw.q.mu.Unlock()
	}
	if t != nil {
		pw.took(w, t)
	}
	return t
}

// popBack is Worker.popBack on a Pool. Under Stealing it pops w's deque
// down to f, counting, and runs the tasks above f. Under Dealing and
// Balancing, where f may be in any queue, it takes f out of whatever queue
// holds it and reports true, or reports false if another worker took it
// first; tasks forked after f stay where they are.
func (pw *policyWorker) popBack(w *Worker, f *task) bool {
	if pw.q == nil {
		for {
			t := pw.pop(w)
			if t == f || t == nil {
				return t == f
			}
			w.execute(t)
		}
	}
	for {
		q := f.queue.Load()
		if q == nil {
			return false
		}
		q.mu.Lock()
		if f.queue.Load() == q { // still there: q's lock keeps it there
			q.remove(f)
			q.mu.Unlock()
			pw.took(w, f)
			return true
		}
		q.mu.Unlock() // moved meanwhile: look again
	}
}

// tryLocked is one round of search under Dealing and Balancing: the
// injection queue, then under Balancing an evening out with a random other
// worker, then w's own queue, where dealing or balancing may have put a
// task.
func (pw *policyWorker) tryLocked(w *Worker) *task {
	if t := w.pool.inject.Pop(); t != nil {
		return t
	}
	if w.pool.policy == Balancing {
		pw.balance(w, w.randomVictim())
	}
	if pw.q.Len() == 0 {
		return nil
	}
	pw.q.mu.Lock()
	defer pw.q.mu.Unlock()
	return pw.q.popBottom()
}

// balance evens out the queues of w and v (see evenOut). v may be nil: w
// is alone.
func (pw *policyWorker) balance(w, v *Worker) {
	// Two queues that look empty would move nothing: an idle worker,
	// which balances every round of its search, leaves the locks alone.
	if v != nil && (pw.q.Len() > 0 || v.pol.q.Len() > 0) {
		pw.moved.Add(int64(evenOut(pw.q, v.pol.q)))
	}
}

// evenOut moves the oldest tasks of the longer of a and b to the top of
// the shorter until their lengths differ by at most one, moving at least
// one task into an empty queue, and returns how many it moved. A closed
// queue (a guest's outside Run) receives nothing.
//
// It locks both queues in rank order, the lower rank first. Every evenOut
// takes its two locks in that one order, and nothing else holds two queue
// locks, so no cycle of workers can each hold one lock and wait for the
// next. (Locking the caller's own queue first, as the natural way to write
// it would, deadlocks two workers evening each other's queues at once.)
func evenOut(a, b *lockedQueue) int {
	first, second := a, b
	if b.rank < a.rank {
		first, second = b, a
	}
	first.mu.Lock()
	second.mu.Lock()
	defer first.mu.Unlock()
	defer second.mu.Unlock()
	long, short := a, b
	if a.n < b.n {
		long, short = b, a
	}
	k := (long.n - short.n) / 2
	if short.n == 0 && long.n > 0 {
		k = max(k, 1)
	}
	if k == 0 || !short.open {
		return 0
	}
	long.moveTop(short, k)
	return k
}

// took counts t, which w is about to run.
func (pw *policyWorker) took(w *Worker, t *task) {
	pw.ran.Add(1)
	if t.spawner != w {
		pw.migrated.Add(1)
	}
}

// search is Worker.search with the idle time and the task found counted.
func (pw *policyWorker) search(w *Worker, done func() bool) *task {
	pw.idleStart(w.pool)
	t := w.seek(done)
	pw.idleStop(w.pool)
	if t != nil {
		pw.took(w, t)
	}
	return t
}

// Idle time is one word, so that Stats reads it consistently while the
// worker may be idle: with T the idle time of the periods that have ended
// and S the start of the current one (both in nanoseconds since the pool
// started, so T <= S), it holds T while the worker is busy and T-S-1 < 0
// while it is idle, when the idle time at instant now is now+T-S.

func (pw *policyWorker) idleStart(p *taskPool) {
	pw.idle.Store(pw.idle.Load() - int64(time.Since(p.start)) - 1)
}

func (pw *policyWorker) idleStop(p *taskPool) {
	pw.idle.Store(pw.idle.Load() + 1 + int64(time.Since(p.start)))
}

// idleTime returns the worker's idle time up to the instant of the call. The clock is read
// after the word: read before it, it could precede the start S of an idle period that began
// in between, and now+T-S came out below T, negative for a worker's first period (a Stats
// call under the race detector once gave -27µs).
func (pw *policyWorker) idleTime(p *taskPool) time.Duration {
	v := pw.idle.Load()
	if v < 0 {
		return time.Since(p.start) + time.Duration(v+1)
	}
	return time.Duration(v)
}
