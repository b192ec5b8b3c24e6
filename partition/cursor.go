package partition

import (
	"fmt"
	"sync/atomic"
)

// Dynamic returns the partitioner whose workers take chunks of a fixed size
// from a shared atomic cursor, in index order, as they become idle. Every
// chunk costs one contended atomic operation, so chunk should cover at least
// a microsecond of work. Dynamic panics if chunk < 1.
func Dynamic(chunk int) Partitioner {
	if chunk < 1 {
		panic(fmt.Sprintf("partition: Dynamic(%d): chunk must be at least 1", chunk))
	}
	return cursorPartitioner{name: "dynamic", min: uint64(chunk)}
}

// Guided returns the partitioner whose workers take chunks from a shared
// cursor with chunk = remaining/(2*workers), never fewer than min items:
// big chunks first, small ones towards the end where they balance the
// finish. Guided panics if min < 1.
func Guided(min int) Partitioner {
	if min < 1 {
		panic(fmt.Sprintf("partition: Guided(%d): min must be at least 1", min))
	}
	return cursorPartitioner{name: "guided", min: uint64(min), guided: true}
}

type cursorPartitioner struct {
	name   string
	min    uint64 // chunk size, or guided's smallest chunk
	guided bool
}

func (p cursorPartitioner) Name() string { return p.name }

func (p cursorPartitioner) Start(lo, hi, workers int) Run {
	p.checkStart(lo, hi, workers)
	r := newCursorRun()
	r.p, r.lo, r.n, r.div, r.workers = p, lo, size(lo, hi), 2*uint64(workers), workers
	r.off.Store(0)
	return r
}

type cursorRun struct {
	p   cursorPartitioner
	lo  int
	n   uint64
	div uint64
	// workers is what Next checks w against: the cursor is shared, and
	// worker w's calls differ from the others' in nothing else.
	workers int
	_       [64]byte      // keep the hot cursor off the read-only fields' line
	off     atomic.Uint64 // items handed out so far, <= n
}

func (r *cursorRun) Next(w int) (lo, hi int, ok bool) {
	if uint(w) >= uint(r.workers) {
		panic(badWorker(r.p.name, r.workers, "Next", w))
	}
	for {
		o := r.off.Load()
		if o >= r.n {
			return 0, 0, false
		}
		left := r.n - o
		k := r.p.min
		if r.p.guided {
			k = max(k, left/r.div)
		}
		k = min(k, left)
		if r.off.CompareAndSwap(o, o+k) { // commits the chunk [o, o+k)
			return at(r.lo, o), at(r.lo, o+k), true
		}
	}
}
