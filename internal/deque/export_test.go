package deque

// NewAt returns an empty Deque of capacity n (a power of two) whose
// counters start at position p, so that tests can start near wrap-around
// and make the ring grow early.
func NewAt[T any](n int, p int64) *Deque[T] { return newAt[T](n, p) }

// Counters returns top and bottom.
func (d *Deque[T]) Counters() (top, bottom int64) { return d.top.Load(), d.bottom.Load() }
