package partition

// Static returns the partitioner that gives each worker one contiguous block
// of the range, decided up front: worker w gets the w-th of workers nearly
// equal blocks (sizes differ by at most one). It costs nothing to coordinate
// and keeps each worker's memory contiguous, but a worker whose block holds
// the expensive items finishes last while the others sit idle.
func Static() Partitioner { return static{} }

type static struct{}

func (static) Name() string { return "static" }

func (static) Start(lo, hi, workers int) Run {
	checkStart("Static()", lo, hi, workers)
	r := newStaticRun(workers)
	r.lo, r.n, r.workers = lo, size(lo, hi), workers
	return r
}

type staticRun struct {
	lo      int
	n       uint64
	workers int
	done    []bool // done[w]: w has been handed its block; each element written only by w's driver
}

func (r *staticRun) Next(w int) (lo, hi int, ok bool) {
	if uint(w) >= uint(len(r.done)) {
		panic(badWorker("static", len(r.done), "Next", w))
	}
	if r.done[w] {
		return 0, 0, false
	}
	r.done[w] = true
	a, b := block(r.n, w, r.workers)
	if a == b {
		return 0, 0, false
	}
	return at(r.lo, a), at(r.lo, b), true
}
