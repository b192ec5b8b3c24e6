package pfor

import (
	"context"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The pool.
//
// Parallel calls share one process-wide pool of helper goroutines, kept warm
// between calls. A call posts its job in a free entry of posted and bumps
// gen; helpers that are spinning see gen move within a fraction of a
// microsecond, claim worker slots of the newest posted job that has some
// left (the innermost of nested calls, whose caller the outer ones wait
// for), and run them, while the calling goroutine runs slot 0 and then
// every slot no helper has claimed. Posting, claiming and the look of a
// spinning helper take no lock: the mutex guards only the list of parked
// helpers and the count of helpers.
//
// A helper that finds no job spins for spinFor, yielding its P between
// looks (so that a goroutine waiting for that P, such as a preempted
// worker of a call, runs meanwhile), so that loops called back to back do
// not pay an OS wake-up. Then it parks on its own channel and uses no CPU
// until a post wakes it; or, if the pool has more helpers than
// GOMAXPROCS-1 (a call asked for more workers than Ps), it exits: wide
// calls do not leave goroutines behind.
//
// Calls never depend on helpers for progress: the caller claims every slot
// no helper has claimed, and the stealing partitioners let it take the
// unclaimed slots' work. So a nested call, a call made while every helper
// is busy or parked, or a call whose helpers' threads the operating system
// has taken off their cores, completes on its own goroutine, and only a
// slot a helper has claimed can make the caller wait.
//
// Parking and posting exclude lost wake-ups as a Dekker pair on sequentially
// consistent atomics: a helper counts itself in sleeping, then looks at gen
// once more before it blocks; post bumps gen, then looks at sleeping. One
// of the two sees the other's write: the helper its job, or post the
// helper, which it then wakes under mu.
type pool struct {
	posted   [maxPosted]atomic.Pointer[job] // jobs helpers may claim slots of; nil: a free entry
	high     atomic.Int32                   // posted[high:] has never been used
	gen      atomic.Uint64                  // bumped by every post, after the job is in posted
	sleeping atomic.Int32                   // helpers in idle, or about to add themselves
	count    atomic.Int32                   // helpers running: mirrors helpers for post's fast path

	// hook, if not nil, is called before each step of parking and posting
	// that another goroutine can observe: a test's, on a pool of its own.
	hook func(stepKind)

	mu      sync.Mutex
	idle    []chan struct{} // parked helpers, each waiting on its channel
	helpers int             // helpers running
	ids     int             // helpers ever started: names them in profiles
}

const (
	spinFor   = 50 * time.Microsecond // how long an idle helper spins before it parks
	spinYield = 16                    // looks at gen between two yields of a spinning helper
	// maxHelpers bounds the helpers of the widest call; beyond GOMAXPROCS-1
	// they exit when idle.
	maxHelpers = 1024
	// maxPosted bounds the jobs posted at once; a call that finds no free
	// entry runs on its caller alone.
	maxPosted = 128
)

var thePool pool

// post makes j's unclaimed slots visible to helpers, starting helpers up to
// want and waking parked ones, one per slot they could take. It returns the
// entry of posted that holds j, for unpost, or -1 if every entry was taken.
// j's fields must be set: a helper may claim a slot as soon as it is posted.
func (p *pool) post(j *job, want int) int {
	if int(p.count.Load()) < min(want, maxHelpers) {
		p.mu.Lock()
		for p.helpers < min(want, maxHelpers) {
			p.helpers++
			p.ids++
			p.count.Store(int32(p.helpers))
			go p.helper(p.ids)
		}
		p.mu.Unlock()
	}
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
	p.step(stepPostGen)
	p.gen.Add(1) // publishes the post to spinning helpers; then look for parked ones
	if p.step(stepPostLook); p.sleeping.Load() > 0 {
		j.woke = true
		p.mu.Lock()
		for range min(int(j.slots)-1, len(p.idle)) {
			ch := p.idle[len(p.idle)-1]
			p.idle = p.idle[:len(p.idle)-1]
			p.sleeping.Add(-1)
			ch <- struct{}{} // buffered: never blocks
		}
		p.mu.Unlock()
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

// claim returns a job and a slot of it for a helper, newest job first, or
// nil. It never changes a job whose slots are all claimed.
func (p *pool) claim() (*job, int) {
	for {
		var best *job
		var seq uint64
		for i := range p.high.Load() {
			if j := p.posted[i].Load(); j != nil && j.open() {
				if q := j.seq.Load(); best == nil || q > seq {
					best, seq = j, q
				}
			}
		}
		if best == nil {
			return nil, 0
		}
		if s, ok := best.claim(); ok {
			return best, s
		}
	}
}

func (p *pool) helper(id int) {
	base := pprof.WithLabels(context.Background(), pprof.Labels("stealkit", "pfor helper", "helper", strconv.Itoa(id)))
	pprof.SetGoroutineLabels(base)
	wake := make(chan struct{}, 1)
	retired := false
	defer func() {
		if !retired { // a body called runtime.Goexit on this helper: it is gone
			p.mu.Lock()
			p.helpers--
			p.count.Store(int32(p.helpers))
			p.mu.Unlock()
		}
	}()
	for {
		g := p.gen.Load() // before claim: a post after this moves gen
		if j, s := p.claim(); j != nil {
			if j.labeled {
				pprof.SetGoroutineLabels(pprof.WithLabels(base, j.labels))
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
		if !p.park(g, wake) {
			retired = true
			return
		}
	}
}

// spin waits up to spinFor for a post after generation g and reports
// whether one came. It yields the P every spinYield looks, as a thief
// yields between failed steals in work stealing for multiprogrammed
// systems: a goroutine this spin would keep from its P (a worker of a
// call, or the caller about to post) runs meanwhile.
func (p *pool) spin(g uint64) bool {
	var start time.Time // read after the first yields: a post usually comes sooner
	for i := 1; ; i++ {
		if p.gen.Load() != g {
			return true
		}
		if i%spinYield != 0 {
			continue
		}
		if i%(64*spinYield) == 0 {
			if start.IsZero() {
				start = time.Now()
			} else if time.Since(start) > spinFor {
				return false
			}
		}
		runtime.Gosched()
	}
}

// park blocks the helper on wake until a post after generation g, and
// reports whether it should go on; false means it has exited the pool, as
// it was one of more helpers than GOMAXPROCS-1.
func (p *pool) park(g uint64, wake chan struct{}) bool {
	p.step(stepParkAnnounce)
	p.mu.Lock()
	if p.helpers > runtime.GOMAXPROCS(0)-1 {
		p.helpers--
		p.count.Store(int32(p.helpers))
		p.mu.Unlock()
		return false
	}
	p.idle = append(p.idle, wake)
	p.sleeping.Add(1) // announces the sleeper before the last look at gen
	p.mu.Unlock()
	if p.step(stepParkLook); p.gen.Load() == g {
		p.step(stepParkBlock)
		<-wake
		return true
	}
	// A post came meanwhile: take back the announcement, unless that post
	// (or a later one) has already taken the helper off idle and sends it a
	// token.
	p.step(stepParkTakeBack)
	p.mu.Lock()
	for i, ch := range p.idle {
		if ch == wake {
			p.idle[i] = p.idle[len(p.idle)-1]
			p.idle = p.idle[:len(p.idle)-1]
			p.sleeping.Add(-1)
			p.mu.Unlock()
			return true
		}
	}
	p.mu.Unlock()
	p.step(stepParkBlock)
	<-wake
	return true
}

func (p *pool) step(k stepKind) {
	if p.hook != nil {
		p.hook(k)
	}
}
