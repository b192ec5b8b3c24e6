package pfor

import (
	"context"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The pool.
//
// Parallel calls share one process-wide pool of helper goroutines, kept warm
// between calls: a call posts its job, helpers that are spinning see it
// within a fraction of a microsecond, claim worker slots and run them, while
// the calling goroutine runs slot 0 itself. A helper that finds no job spins
// for spinFor (so that loops called back to back do not pay an OS wake-up),
// then parks on its own channel and uses no CPU until a job is posted.
//
// The pool grows to the largest number of helpers any call has asked for
// (workers-1, at most maxHelpers) and never beyond: the number of goroutines
// does not grow with the number of calls, nor with nesting depth. Calls never
// depend on helpers for progress: the caller claims every slot no helper has
// taken, and the stealing partitioners let it take the unclaimed slots' work.
// So a nested call, or a call made while every helper is busy, completes on
// its own goroutine.
//
// Lost wake-ups are excluded by the mutex: a helper parks only after checking,
// under mu, that no job was posted since it last looked, and post wakes idle
// helpers under the same mutex.
type pool struct {
	mu      sync.Mutex
	jobs    []*job          // jobs that may still have unclaimed slots
	idle    []chan struct{} // parked helpers, each waiting on its channel
	helpers int             // helpers started
	gen     atomic.Uint64   // incremented by every post: spinning helpers watch it
}

const (
	spinFor    = 50 * time.Microsecond // how long an idle helper spins before it parks
	maxHelpers = 1024
)

var thePool pool

// post makes j visible to helpers, starting helpers up to want and waking
// parked ones, one per slot that helpers could take.
func (p *pool) post(j *job, want int) {
	p.mu.Lock()
	p.growLocked(want)
	p.jobs = append(p.jobs, j)
	p.gen.Add(1)
	for range min(int(j.slots)-1, len(p.idle)) {
		ch := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		ch <- struct{}{} // buffered: never blocks
	}
	p.mu.Unlock()
}

// grow starts helpers up to want, as post does, without posting a job: a
// call that starts on the caller alone grows the pool as any other call, so
// that the widest call starts the helpers (see lag.go).
func (p *pool) grow(want int) {
	p.mu.Lock()
	p.growLocked(want)
	p.mu.Unlock()
}

func (p *pool) growLocked(want int) {
	for p.helpers < min(want, maxHelpers) {
		p.helpers++
		go p.helper(p.helpers)
	}
}

// retire removes j once all its slots are claimed.
func (p *pool) retire(j *job) {
	p.mu.Lock()
	for i, x := range p.jobs {
		if x == j {
			p.jobs = slices.Delete(p.jobs, i, i+1)
			break
		}
	}
	p.mu.Unlock()
}

// claim returns a job and a slot of it for a helper, newest job first (the
// innermost of nested calls finishes first, so its caller can go on), or nil.
func (p *pool) claim() (*job, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.jobs) - 1; i >= 0; i-- {
		j := p.jobs[i]
		if s := int(j.next.Add(1)) - 1; s < int(j.slots) {
			return j, s
		}
	}
	return nil, 0
}

func (p *pool) helper(id int) {
	base := pprof.WithLabels(context.Background(), pprof.Labels("stealkit", "pfor helper", "helper", strconv.Itoa(id)))
	pprof.SetGoroutineLabels(base)
	wake := make(chan struct{}, 1)
	for {
		g := p.gen.Load() // before claim: a post after this is seen by spin or under mu
		if j, s := p.claim(); j != nil {
			if j.labels != nil {
				pprof.SetGoroutineLabels(pprof.WithLabels(j.labels, pprof.Labels("helper", strconv.Itoa(id))))
				j.runSlot(s)
				pprof.SetGoroutineLabels(base)
				continue
			}
			j.runSlot(s)
			continue
		}
		if p.spin(g) {
			continue
		}
		p.mu.Lock()
		if p.gen.Load() != g {
			p.mu.Unlock()
			continue
		}
		p.idle = append(p.idle, wake)
		p.mu.Unlock()
		<-wake
	}
}

// spin waits up to spinFor for a post after generation g and reports
// whether one came.
func (p *pool) spin(g uint64) bool {
	start := time.Now()
	for i := 1; ; i++ {
		if p.gen.Load() != g {
			return true
		}
		if i%64 == 0 {
			if time.Since(start) > spinFor {
				return false
			}
			runtime.Gosched() // let other goroutines, or a caller that is about to post, run
		}
	}
}
