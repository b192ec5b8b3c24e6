package sched

import (
	"sync"
	"sync/atomic"
)

// Queue is the scheduler's injection queue: a first-in first-out queue of
// pointers for work submitted from outside the pool, where there is no
// worker deque to push to. Push and Pop can be executed by any goroutine.
//
// It is a mutex around a slice, with the length mirrored in an atomic so
// that workers, which look at the queue every time they run out of work,
// find it empty without taking the lock. A lock-free queue would buy little:
// pushes come from goroutines outside the pool, at the rate they submit
// tasks, and every pop is followed by running a task.
//
// Len's atomic is also what publishes a Push to the sleep protocol (see
// Idle): Push adds to it before the producer calls Notify.
type Queue[T any] struct {
	n     atomic.Int64 // number of elements; changed under mu
	mu    sync.Mutex
	items []*T // items[head:] are queued, oldest first
	head  int
}

// Push appends x.
func (q *Queue[T]) Push(x *T) {
	q.mu.Lock()
	q.items = append(q.items, x)
	q.n.Add(1)
	q.mu.Unlock()
}

// Pop removes and returns the oldest element, or nil if the queue is empty.
func (q *Queue[T]) Pop() *T {
	if q.n.Load() == 0 {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head == len(q.items) {
		return nil
	}
	x := q.items[q.head]
	q.items[q.head] = nil
	q.head++
	if q.head == len(q.items) { // empty: reuse the slice from the start
		q.items, q.head = q.items[:0], 0
	} else if q.head >= 1024 && q.head > len(q.items)/2 { // compact a long-lived backlog
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	q.n.Add(-1)
	return x
}

// Len returns the number of elements, as of some instant during the call.
func (q *Queue[T]) Len() int { return int(q.n.Load()) }
