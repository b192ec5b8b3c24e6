package pfor

import "runtime"

// goid returns the calling goroutine's id, read from the first line of its
// stack trace ("goroutine 18 [running]:"). It costs microseconds, so only
// Group.Wait's check for a task waiting for its own Group uses it, and
// only when the Group has tasks left.
//
// Go has no goroutine-local storage, which is why tasks get a *Worker
// instead of the scheduler looking up the current worker: a lookup by
// goroutine id on every fork would cost more than the fork (see Worker).
func goid() uint64 {
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

// waitsForItself reports whether the goroutine with id gid is running a
// task of g innermost on one of its workers (a pool worker, or the guest
// of an enclosing Group.Wait): waiting for g there would wait for that
// task. A worker's gid is that of the goroutine using it, or 0; its cur is
// read only when that goroutine is the caller's.
func waitsForItself(gid uint64, g *Group) bool {
	for _, v := range *thePool.victims.Load() {
		if v.gid.Load() == gid && v.cur != nil && v.cur.g == g {
			return true
		}
	}
	return false
}
