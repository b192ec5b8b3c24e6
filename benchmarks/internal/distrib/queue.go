package distrib

import (
	"sync"
	"sync/atomic"
)

// A lockedQueue is a worker's task queue under the Dealing and Balancing
// policies: a ring buffer under a mutex. The Chase-Lev deque of work
// stealing only lets its owner add tasks, and only lets others take one at
// a time from the top; dealing adds tasks to other workers' queues and
// balancing moves whole runs of tasks between two queues, so both need a
// queue that any worker may change, and balancing needs two of them held
// still at once: that is what the locks buy.
//
// # Callers
//
// Every method but Len is called with mu held, by any goroutine. The owner
// pushes and pops at the bottom (newest first, as on a deque); balancing
// moves tasks from one queue's top (the oldest) to another's top; dealing
// pushes at another worker's bottom; a Both takes its frame back from
// wherever it is.
//
// # State
//
//	ring  []*task       tasks [head, head+n) modulo len(ring), oldest first; len(ring) is 0 or a power of two
//	n     int           number of tasks
//	size  atomic.Int64  n, stored after every change, for readers without the lock
//	open  bool          whether other workers may add to the queue (see Pool.release); pool workers' queues
//	                    are always open, a guest's while it is in Run
//	rank  int           the queue's place in the lock order (see evenOut)
//
// Each task in the queue has queue == q, stored under mu by whoever puts it
// there, and nil stored by whoever takes it out: a Both finds its frame
// through it (see Worker.popBack). A task is in at most one queue, and a move
// between two holds both locks, so queue only ever changes under the lock
// of the queue it names.
type lockedQueue struct {
	mu   sync.Mutex
	ring []*task
	head int
	n    int
	size atomic.Int64
	open bool
	rank int
	_    [64]byte // the owner takes mu on every push and pop
}

// Len returns the number of tasks, as of some instant during the call.
func (q *lockedQueue) Len() int { return int(q.size.Load()) }

// at returns the i-th oldest task.
func (q *lockedQueue) at(i int) *task { return q.ring[(q.head+i)&(len(q.ring)-1)] }

// grow makes room for one more task.
func (q *lockedQueue) grow() {
	if q.n < len(q.ring) {
		return
	}
	ring := make([]*task, max(2*len(q.ring), 16))
	for i := range q.n {
		ring[i] = q.at(i)
	}
	q.ring, q.head = ring, 0
}

// pushBottom adds t as the newest task.
func (q *lockedQueue) pushBottom(t *task) {
	q.grow()
	q.ring[(q.head+q.n)&(len(q.ring)-1)] = t
	q.n++
	t.queue.Store(q) // publishes where the task is, for Worker.popBack
	q.size.Store(int64(q.n))
}

// pushTop adds t as the oldest task.
func (q *lockedQueue) pushTop(t *task) {
	q.grow()
	q.head = (q.head - 1) & (len(q.ring) - 1)
	q.ring[q.head] = t
	q.n++
	t.queue.Store(q)
	q.size.Store(int64(q.n))
}

// popBottom removes and returns the newest task, or nil.
func (q *lockedQueue) popBottom() *task {
	if q.n == 0 {
		return nil
	}
	q.n--
	i := (q.head + q.n) & (len(q.ring) - 1)
	t := q.ring[i]
	q.ring[i] = nil
	t.queue.Store(nil) // the task is taken: a Both waiting for it must not take it back
	q.size.Store(int64(q.n))
	return t
}

// popTop removes and returns the oldest task, or nil.
func (q *lockedQueue) popTop() *task {
	if q.n == 0 {
		return nil
	}
	t := q.ring[q.head]
	q.ring[q.head] = nil
	q.head = (q.head + 1) & (len(q.ring) - 1)
	q.n--
	t.queue.Store(nil)
	q.size.Store(int64(q.n))
	return t
}

// remove takes t out of the queue, which holds it (t.queue == q). Frames
// taken back are usually the newest task, so the search starts there.
func (q *lockedQueue) remove(t *task) {
	i := q.n - 1
	for q.at(i) != t {
		i--
	}
	mask := len(q.ring) - 1
	for ; i < q.n-1; i++ {
		q.ring[(q.head+i)&mask] = q.ring[(q.head+i+1)&mask]
	}
	q.ring[(q.head+q.n-1)&mask] = nil
	q.n--
	t.queue.Store(nil)
	q.size.Store(int64(q.n))
}

// moveTop moves the k oldest tasks of q to the top of to, keeping their
// order: the oldest stays oldest. Both locks are held.
func (q *lockedQueue) moveTop(to *lockedQueue, k int) {
	for i := k - 1; i >= 0; i-- {
		to.pushTop(q.at(i)) // stores the task's new queue under both locks
	}
	for range k {
		q.ring[q.head] = nil
		q.head = (q.head + 1) & (len(q.ring) - 1)
	}
	q.n -= k
	q.size.Store(int64(q.n))
}
