package pfor

// Join and Both on a Pool's worker. Join and Both test w.pol once, before
// the fork, and a Pool's worker continues here, so that the default pool's
// joins push and pop with no test for a Pool (pushDeque, Worker.popBack).
// (Testing in push and popBack instead, as a first version did, measured
// 15 to 20% more per join: BenchmarkJoin, 37.6 ns per leaf against 32.0
// with the test here and 31.2 before Pools. A Pool's join pays a call
// more for it.)

// bothPool is Both on a Pool's worker: the same join, with the Pool's push
// and popBack, which count and follow the policy (see policyWorker).
func bothPool[A, R any](w *Worker, f func(w *Worker, arg A) R, x, y A) (fx, fy R) {
	fr := w.fork()
	j := frameJob[*bothJob[A, R]](fr)
	j.f, j.arg = f, x
	w.pol.push(w, fr)
	joined := false
	defer func() {
		if !joined {
			w.abandon(fr)
		}
	}()
	fy = f(w, y)
	joined = true
	if w.pol.popBack(w, fr) {
		*j = bothJob[A, R]{}
		w.depth--
		return f(w, x), fy
	}
	w.waitFrame(fr)
	fx = j.res
	*j = bothJob[A, R]{}
	w.depth--
	if p := fr.panic; p != nil {
		fr.panic = nil
		panic(p)
	}
	return fx, fy
}

// callHalf calls one half of a Join. On a Pool, Join(a, b) is
// bothPool(w, callHalf, a, b): b at once, a forked, with Join's panics.
func callHalf(w *Worker, half func(*Worker)) struct{} {
	half(w)
	return struct{}{}
}
