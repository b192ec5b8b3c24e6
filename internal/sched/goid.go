package sched

import "runtime"

// GoID returns the calling goroutine's id, read from the first line of its
// stack trace ("goroutine 18 [running]:"). It costs microseconds, so only
// Group.Wait's check for a task waiting for its own Group uses it, and
// only when the Group has tasks left.
//
// Go has no goroutine-local storage, which is why tasks get a *Worker
// instead of the scheduler looking up the current worker: a lookup by
// goroutine id on every fork would cost more than the fork (see pfor's Worker).
func GoID() uint64 {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	var id uint64
	for _, c := range buf[len("goroutine "):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
