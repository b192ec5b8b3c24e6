package distrib

import "fmt"

// A Policy is how a Pool distributes the tasks its workers fork.
type Policy uint8

const (
	// Stealing: a worker pushes the tasks it forks onto its own
	// Chase-Lev deque and runs them newest first; a worker with nothing
	// to do takes the oldest task of a random other worker. Work moves
	// only when someone is idle. stealkit's task pool does this.
	Stealing Policy = iota

	// Dealing: a worker hands every task it forks to another worker,
	// round robin over the workers in the pool (work sharing), and runs
	// the tasks handed to it newest first; an idle worker waits for tasks
	// to be dealt to it. A Both takes its forked half back if that has
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

// Policies lists the policies in the order of their declaration.
var Policies = []Policy{Stealing, Dealing, Balancing}

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

// push queues t, forked by w, under the pool's policy, and wakes a worker
// that may take it.
func (w *Worker) push(t *task) {
	w.spawned.Add(1)
	p := w.pool
	switch p.policy {
	case Stealing:
		w.dq.Push(t)
		p.idle.Notify()
	case Dealing:
		if v := w.deal(t); v != nil {
			v.park.Unpark() // after the queue's size store: see sched.Parker
			return
		}
		w.q.mu.Lock()
		w.q.pushBottom(t)
		w.q.mu.Unlock()
	case Balancing:
		w.q.mu.Lock()
		w.q.pushBottom(t)
		w.q.mu.Unlock()
		p.idle.Notify()
	}
}

// deal pushes t onto the next open queue of another worker, round robin,
// and returns that worker, or nil if no other queue is open.
func (w *Worker) deal(t *task) *Worker {
	vs := *w.pool.victims.Load()
	for range vs {
		w.next++
		if w.next >= len(vs) {
			w.next = 0
		}
		v := vs[w.next]
		if v == w {
			continue
		}
		q := v.q
		q.mu.Lock()
		if q.open {
			q.pushBottom(t)
			q.mu.Unlock()
			w.moved.Add(1)
			return v
		}
		q.mu.Unlock()
	}
	return nil
}

// pop takes w's newest own task, or nil; under Balancing it first evens
// out w's queue with a random other one, with probability 1/(size+1).
func (w *Worker) pop() *task {
	var t *task
	if w.q == nil {
		t = w.dq.Pop()
	} else {
		n := w.q.Len()
		if n == 0 {
			return nil // search balances, with probability 1
		}
		if w.pool.policy == Balancing && w.random()%uint64(n+1) == 0 {
			w.balance(w.randomVictim())
		}
		w.q.mu.Lock()
		t = w.q.popBottom()
		w.q.mu.Unlock()
	}
	if t != nil {
		w.took(t)
	}
	return t
}

// popBack takes f, the frame of w's innermost Both, back from wherever it
// is and reports true, or reports false if another worker took it first.
// Under Stealing f is on w's deque under the frames of w's Boths that have
// returned, which are gone: w pops its deque down to f. Under Dealing and
// Balancing f may be in any queue, whose lock keeps it there.
func (w *Worker) popBack(f *task) bool {
	if w.q == nil {
		for {
			t := w.pop()
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
			w.took(f)
			return true
		}
		q.mu.Unlock() // moved meanwhile: look again
	}
}

// trySteal is one round of search: under Stealing, a try at each other
// deque, starting at a random one; under Dealing, w's own queue, where
// dealing puts tasks; under Balancing, an evening out with a random other
// worker, then w's own queue.
func (w *Worker) trySteal() *task {
	if w.q == nil {
		vs := *w.pool.victims.Load()
		n := uint64(len(vs))
		for i, start := uint64(0), w.random()%n; i < n; i++ {
			v := vs[(start+i)%n]
			if v == w {
				continue
			}
			if t := v.dq.Steal(); t != nil {
				return t
			}
		}
		return nil
	}
	if w.pool.policy == Balancing {
		w.balance(w.randomVictim())
	}
	if w.q.Len() == 0 {
		return nil
	}
	w.q.mu.Lock()
	defer w.q.mu.Unlock()
	return w.q.popBottom()
}

// hasWork reports whether there is a task that w could find, as of some
// instant during the call: anywhere, except under Dealing, where w runs
// only what was dealt to it.
func (p *Pool) hasWork(w *Worker) bool {
	if p.policy == Dealing {
		return w.q.Len() > 0
	}
	for _, v := range *p.victims.Load() {
		if v.q != nil && v.q.Len() > 0 || v.dq != nil && v.dq.Len() > 0 {
			return true
		}
	}
	return false
}

// balance evens out the queues of w and v (see evenOut). v may be nil: w
// is alone.
func (w *Worker) balance(v *Worker) {
	// Two queues that look empty would move nothing: an idle worker,
	// which balances every round of its search, leaves the locks alone.
	if v != nil && (w.q.Len() > 0 || v.q.Len() > 0) {
		w.moved.Add(int64(evenOut(w.q, v.q)))
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

// random returns the next number of w's xorshift generator.
func (w *Worker) random() uint64 {
	w.rng ^= w.rng << 13
	w.rng ^= w.rng >> 7
	w.rng ^= w.rng << 17
	return w.rng
}

// randomVictim returns a random worker of w's pool other than w, or nil if
// w is alone.
func (w *Worker) randomVictim() *Worker {
	vs := *w.pool.victims.Load()
	if len(vs) < 2 {
		return nil
	}
	v := vs[w.random()%uint64(len(vs)-1)]
	if v == w { // w takes the place of the last one
		v = vs[len(vs)-1]
	}
	return v
}
