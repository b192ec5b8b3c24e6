package pfor

// Helpers reports how many helper goroutines the pool has running.
func Helpers() int {
	thePool.mu.Lock()
	defer thePool.mu.Unlock()
	return thePool.helpers
}

// ClaimsPastFullJob posts a job of 2 slots whose slots are all claimed, as a
// long call's job is while it runs, lets the pool's claim walk past it
// rounds times (as helpers do after every short call), withdraws it, and
// returns its next unclaimed slot, which must still be 2.
func ClaimsPastFullJob(rounds int) int {
	j := &job{slots: 2, wake: make(chan struct{}, 1)}
	j.claims.Store(2<<32 | 2)
	e := thePool.post(j, 0)
	for range rounds {
		if k, _ := thePool.claim(); k == j {
			panic("pfor: claim handed out a slot of a full job")
		}
	}
	thePool.unpost(e)
	return int(uint32(j.claims.Load()))
}
