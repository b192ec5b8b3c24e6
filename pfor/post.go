package pfor

import (
	"context"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"
)

// Loop jobs.
//
// A loop call posts its job in a free entry of the pool's posted and bumps
// gen; searching workers see the job within a round of their search, claim
// worker slots of the newest posted job that has some left (the innermost
// of nested calls, whose caller the outer ones wait for), and run them,
// while the calling goroutine runs slot 0 and then every slot no worker has
// claimed. Posting and claiming take no lock.
//
// Posting wakes sleeping workers through the pool's Idle: the entry's CAS
// and gen's add make the job visible before Wake looks for sleepers, and a
// worker about to sleep looks at posted once more after it announced
// itself (hasWork), so that one of the two sees the other (see
// internal/sched's Idle).
//
// Calls never depend on workers for progress: the caller claims every slot
// no worker has claimed, and the stealing partitioners let it take the
// unclaimed slots' work. So a nested call, a call made while every worker
// is busy or asleep, or a call whose workers' threads the operating system
// has taken off their cores, completes on its own goroutine, and only a
// slot a worker has claimed can make the caller wait.

const (
	spinFor   = 50 * time.Microsecond // how long an idle worker searches before it sleeps, an extra helper before it ends
	spinYield = 16                    // looks between two yields of a spinning extra helper or join
	// maxHelpers bounds the helpers of the widest call; beyond GOMAXPROCS-1
	// they are extra helpers, which end when idle.
	maxHelpers = 1024
	// maxPosted bounds the jobs posted at once; a call that finds no free
	// entry runs on its caller alone.
	maxPosted = 128
)

// post makes j's unclaimed slots visible to workers, starting extra helpers
// if want is more than the pool has workers, and waking sleeping workers,
// up to one per slot they could take. It returns the entry of posted that
// holds j, for unpost, or -1 if every entry was taken. j's fields must be
// set: a worker may claim a slot as soon as it is posted.
func (p *pool) post(j *job, want int) int {
	if want > int(p.target.Load()) {
		// The pool may have fewer workers than GOMAXPROCS-1 now. Reading
		// GOMAXPROCS takes the runtime's scheduler lock, too dear for every
		// call: the pool follows it up here and in the task entry points,
		// and down when a worker is about to sleep (see search).
		p.grow()
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
	// seq orders the job before it is visible, so that a waiter that found
	// it in posted, ran a slot of it and waits in its body reads seqs at
	// or past seq, and skips it (see claim). gen, bumped after, is what
	// searching workers watch.
	j.seq.Store(p.seqs.Add(1))
	e := -1
	for i := range p.posted {
		if p.posted[i].Load() == nil && p.posted[i].CompareAndSwap(nil, j) { // commits the entry to j
			e = i
			break
		}
	}
	if e < 0 {
		return -1
	}
	for h := p.high.Load(); h <= int32(e); h = p.high.Load() {
		if p.high.CompareAndSwap(h, int32(e)+1) {
			break
		}
	}
	p.gen.Add(1) // publishes the post to searching workers; then look for sleeping ones
	if want > 0 {
		j.woke = p.idle.Wake(want)
	}
	return e
}

// unpost frees entry e of posted, which post returned; j's slots are all
// claimed by then.
func (p *pool) unpost(e int) {
	if e >= 0 {
		p.posted[e].Store(nil)
	}
}

// claim returns a job whose seq is above since and a slot of it, newest
// job first, or nil: since 0 takes any job; a waiter passes seqs as it was
// when its wait began, and takes only jobs posted after that. It never changes a job whose slots are all
// claimed.
func (p *pool) claim(since uint64) (*job, int) {
	for {
		best := p.open(since)
		if best == nil {
			return nil, 0
		}
		if s, ok := best.claim(); ok {
			return best, s
		}
	}
}

// open returns the newest posted job whose seq is above since and that may
// have slots left to claim, or nil.
func (p *pool) open(since uint64) *job {
	var best *job
	var seq uint64
	for i := range p.high.Load() {
		if j := p.posted[i].Load(); j != nil && j.open() {
			if q := j.seq.Load(); q > since && (best == nil || q > seq) {
				best, seq = j, q
			}
		}
	}
	return best
}

// runSlot runs slot s of j on a helper goroutine (a pool worker or an extra
// helper) whose labels are base, adding the job's labels meanwhile.
func runSlot(base context.Context, j *job, s int) {
	if !j.labeled {
		j.runSlot(s)
		return
	}
	pprof.SetGoroutineLabels(pprof.WithLabels(base, j.labels))
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
func (p *pool) extra(id int) {
	base := helperLabels("extra " + strconv.Itoa(id))
	defer func() { // also when a body calls runtime.Goexit on this helper
		p.mu.Lock()
		p.nextra--
		p.extras.Store(int32(p.nextra))
		p.mu.Unlock()
	}()
	var start time.Time
	for i := 1; ; i++ {
		if j, s := p.claim(0); j != nil {
			runSlot(base, j, s)
			i, start = 0, time.Time{}
			continue
		}
		if i%spinYield != 0 {
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
