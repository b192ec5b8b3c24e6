package pfor

import (
	"sync"
	"sync/atomic"
)

// A spare keeps objects of type T between calls: one in a word of its own,
// which the back-to-back calls of a goroutine take and give back with one
// atomic operation each, and the others in a sync.Pool, whose round trip
// costs several times that (it pins the goroutine to its processor), for
// calls under way at the same time. The one kept in its word outlives
// garbage collections, which empty the pool. Any goroutine may call get and
// put.
type spare[T any] struct {
	one  atomic.Pointer[T]
	pool sync.Pool // of *T
	new  func() *T
}

// get returns a kept object, or a new one.
func (s *spare[T]) get() *T {
	if s.one.Load() != nil { // load first: with none kept, get writes nothing
		if p := s.one.Swap(nil); p != nil { // takes the one kept
			return p
		}
	}
	if p, ok := s.pool.Get().(*T); ok {
		return p
	}
	return s.new()
}

// put keeps p, which the caller no longer uses.
func (s *spare[T]) put(p *T) {
	if s.one.Load() != nil || !s.one.CompareAndSwap(nil, p) { // commits p as the one kept
		s.pool.Put(p)
	}
}
