package pfor

// Helpers reports how many helper goroutines the pool has started.
func Helpers() int {
	thePool.mu.Lock()
	defer thePool.mu.Unlock()
	return thePool.helpers
}
