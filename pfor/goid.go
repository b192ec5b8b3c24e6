package pfor

// waitsForItself reports whether the goroutine with id gid is running a
// task of g innermost on one of its workers (a pool worker, or the guest
// of an enclosing Group.Wait): waiting for g there would wait for that
// task. A worker's gid is that of the goroutine using it, or 0; its cur is
// read only when that goroutine is the caller's.
func waitsForItself(gid uint64, g *Group) bool {
	for _, sv := range thePool.Victims() {
		if v := workerOf(sv); v.s.GID.Load() == gid && v.cur != nil && v.cur.g == g {
			return true
		}
	}
	return false
}
