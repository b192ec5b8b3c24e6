package sched

import (
	"context"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"
)

const (
	spinFor = 50 * time.Microsecond // how long an idle worker searches before it sleeps, an extra helper before it ends
	// maxHelpers bounds the helpers of the widest call; beyond GOMAXPROCS-1
	// they are extra helpers, which end when idle.
	maxHelpers = 1024
)

// Post makes j's unclaimed slots visible to workers, starting extra helpers
// if want is more than the pool has workers, and waking sleeping workers,
// up to one per slot they could take. It returns the entry of the posting
// table that holds j, for Drive, or -1 if every entry was taken. j's fields must be
// set (Start): a worker may claim a slot as soon as it is posted.
func (p *Pool) Post(j *Job, want int) int {
	if want > int(p.target.Load()) {
		// The pool may have fewer workers than GOMAXPROCS-1 now. Reading
		// GOMAXPROCS takes the runtime's scheduler lock, too dear for every
		// call: the pool follows it up here and in the task entry points,
		// and down when a worker is about to sleep (see search).
		p.Grow()
	}
	if extra := min(want, maxHelpers) - int(p.target.Load()); extra > 0 && int(p.extras.Load()) < extra {
		p.mu.Lock()
		for p.nextra < extra {
			p.nextra++
			p.extraIDs++
			p.extras.Store(int32(p.nextra))
			go p.extra(p.extraIDs)
		}
		p.mu.Unlock()
	}
	e := p.loops.Add(j)
	if e < 0 {
		return -1
	}
	if want > 0 {
		j.woke = p.idle.Wake(want)
	}
	return e
}

// helpSlot runs slot s of j on a helper goroutine (a pool worker or an extra
// helper) whose labels are base, adding the job's labels meanwhile.
func helpSlot(base context.Context, j *Job, s int) {
	if !j.Labeled {
		j.runSlot(s)
		return
	}
	pprof.SetGoroutineLabels(pprof.WithLabels(base, j.Labels))
	defer pprof.SetGoroutineLabels(base)
	j.runSlot(s)
}

// helperLabels labels the calling goroutine, the helper named id, for
// profiles, and returns its labels.
func helperLabels(id string) context.Context {
	base := pprof.WithLabels(context.Background(), pprof.Labels("stealkit", "pfor helper", "helper", id))
	pprof.SetGoroutineLabels(base)
	return base
}

// extra is an extra helper's goroutine, for calls wider than the pool: it
// claims and runs loop slots until it finds none for spinFor, then ends.
func (p *Pool) extra(id int) {
	base := helperLabels("extra " + strconv.Itoa(id))
	defer func() { // also when a body calls runtime.Goexit on this helper
		p.mu.Lock()
		p.nextra--
		p.extras.Store(int32(p.nextra))
		p.mu.Unlock()
	}()
	var start time.Time
	for i := 1; ; i++ {
		if j, s := p.loops.Claim(0); j != nil {
			helpSlot(base, j, s)
			i, start = 0, time.Time{}
			continue
		}
		if i%SpinYield != 0 {
			continue
		}
		if start.IsZero() {
			start = time.Now()
		} else if time.Since(start) > spinFor {
			return
		}
		runtime.Gosched()
	}
}
