package pfor

import (
	"context"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// A job is one parallel call: a partition.Run whose worker slots are driven
// by the caller (slot 0, then every slot no helper claimed) and by pool
// helpers. Each slot is claimed exactly once, through claims, and driven by
// the goroutine that claimed it until Next reports no more work or the job
// stops.
//
// Who calls what: the caller (the goroutine of the call) sets the fields,
// stores claims, drives slot 0 and every slot it claims, and joins; any
// goroutine may claim; the goroutine that claimed a slot drives it and
// calls finish once, as the slot's last access to the job.
//
// Invariants: next <= slots, as a claim never moves a full job, so each slot
// in [0, slots) is claimed exactly once; finished counts at most slots
// slots, and joinParked is added at most once, by the caller, before the
// count is complete.
//
// Linearization points: a claim at its CAS of claims; a slot's end at its
// add to finished; the caller's decision to block at its CAS adding
// joinParked, after which the finish that completes the count sends the one
// token on wake.
//
// Jobs are reused from jobPool. A helper may still hold a pointer to a job
// it found posted after the job's call has returned and the job has been
// reused: it touches only the atomics claims and seq before its claim
// succeeds, and a claim of a reused job is a claim of the new call's slot,
// whose fields were set before claims was stored.
type job struct {
	// claims packs slots<<32 | next, next being the next unclaimed slot:
	// one word, so that a claim is one CAS and a full job (next == slots)
	// is never changed. Stored once per call, after every other field is
	// set: that store publishes the call to the slots' claimers.
	claims atomic.Uint64
	seq    atomic.Uint64 // the pool's seqs when posted: workers claim the newest first

	// finished counts the slots that have finished, plus joinParked once the
	// caller blocks on wake: the slot whose add makes it slots+joinParked
	// sends one token (see join).
	finished atomic.Int64
	wake     chan struct{} // buffered, empty between calls; made once per job object

	run   partition.Run
	split partproto.SplittingRun // run, if it splits; else nil
	body  loopBody
	slots int32

	stop atomic.Bool // set on the first error, panic or cancellation: no new chunk starts

	mu       sync.Mutex // guards err, panic, canceled and tokens
	err      error
	panic    *PanicError
	canceled error       // the context's error, once it is done
	cut      atomic.Bool // a slot stopped with work possibly left

	ctx  context.Context // nil for calls without a context
	halt <-chan struct{} // ctx.Done(), polled before every chunk; nil if it can never be done

	// Slots that found no work while another holds an overdue range poll
	// for a while, then sleep until a slot finishes a chunk or stops.
	sleepers atomic.Int32 // slots asleep, or about to sleep, on nudge
	nudge    sync.Cond    // on mu; signalled with a token added to tokens
	tokens   int          // guarded by mu: wake-ups not yet taken by a sleeper

	call    string         // the entry point, for *PanicError
	label   string         // trace region name, "" for "pfor"
	labels  pprof.LabelSet // loop=name, added to a helper's own labels while it runs a slot
	labeled bool           // labels is set: the call has a WithLabel

	stats *jobStats // nil unless WithStats
	woke  bool      // post woke sleeping workers for the job; written by the caller only
}

// joinParked is added to finished by a caller that blocks in join.
const joinParked = 1 << 32

var jobPool = sync.Pool{New: func() any {
	j := &job{wake: make(chan struct{}, 1)}
	j.nudge.L = &j.mu
	return j
}}

// open reports whether j may have slots left to claim.
func (j *job) open() bool {
	c := j.claims.Load()
	return uint32(c) < uint32(c>>32)
}

// claim claims the next unclaimed slot of j, if any. Any goroutine may call
// it; a job whose slots are all claimed is left unchanged.
func (j *job) claim() (int, bool) {
	for {
		c := j.claims.Load()
		if uint32(c) >= uint32(c>>32) {
			return 0, false
		}
		if j.claims.CompareAndSwap(c, c+1) { // commits the claim of slot uint32(c)
			return int(uint32(c)), true
		}
	}
}

// finish counts a slot as finished and, if it is the last and the caller
// has blocked in join, wakes the caller. The slot's goroutine must not
// touch j after it, as the caller may reuse j as soon as the count is
// complete.
func (j *job) finish() {
	want := int64(j.slots) + joinParked // read before the add: j may be reused after it
	if j.finished.Add(1) == want {      // the caller blocked before this last add
		j.wake <- struct{}{}
	}
}

// join waits until every slot has finished, and reports whether it
// blocked: it polls, yielding, for a
// while (the helpers' last chunks of a short call end within
// microseconds), then blocks, leaving the thread to whatever else is
// runnable, which is what a helper whose thread the operating system has
// taken off its core needs.
func (j *job) join() (blocked bool) {
	slots := int64(j.slots)
	var start time.Time
	for i := 1; ; i++ {
		step(stepJoinLoad)
		f := j.finished.Load()
		if f == slots {
			return false
		}
		if i%spinYield == 0 {
			runtime.Gosched()
		}
		if i%joinPolls != 0 {
			continue
		}
		if start.IsZero() {
			start = time.Now()
			continue
		}
		if time.Since(start) < joinSpin {
			continue
		}
		step(stepJoinPark)
		if j.finished.CompareAndSwap(f, f+joinParked) { // commits to blocking: the last finish sends
			step(stepJoinBlock)
			<-j.wake
			return true
		}
	}
}

// How long join polls before it blocks: joinPolls looks at finished before
// it reads the clock, then until joinSpin has passed. Variables so that the
// interleaving tests can shorten the polling.
var (
	joinPolls = 256
	joinSpin  = 20 * time.Microsecond
)

// panicked stops the job on a panic in the body, recovered with value r in
// the deferred function of the goroutine that panicked, and records it with
// the stack of the panic site.
func (j *job) panicked(r any) {
	j.stop.Store(true) // before capturing the stack, which takes a while
	j.fail(nil, wrapPanic(j.call, r))
}

// fail records the first error or panic and stops the job. A panic replaces
// an earlier error: panics always reach the caller.
func (j *job) fail(err error, p *PanicError) {
	j.stop.Store(true)
	j.mu.Lock()
	if p != nil && j.panic == nil {
		j.panic = p
	}
	if err != nil && j.err == nil {
		j.err = err
	}
	j.mu.Unlock()
}

// stopped reports whether the job has stopped (by error, panic or its
// context) and the calling slot must not start another chunk.
func (j *job) stopped() bool {
	if j.halt != nil {
		select {
		case <-j.halt:
			j.mu.Lock()
			j.canceled = j.ctx.Err()
			j.mu.Unlock()
			j.stop.Store(true)
		default:
		}
	}
	if j.stop.Load() {
		j.cut.Store(true)
		return true
	}
	return false
}

// drive runs the caller's part of the job: slot 0, then every slot no
// helper has claimed; then it frees j's entry e of the pool's posted jobs
// and waits for the helpers' slots to finish. It reports whether the
// helpers were late (see late.go): the caller had to block for them, or ran
// a slot itself although its post woke no worker, so that workers were
// searching (or busy) but did not run it.
func (j *job) drive(e int) (late bool) {
	unposted := false
	defer func() {
		if !unposted {
			// A body called runtime.Goexit on the caller's goroutine: stop the
			// job, take its unclaimed slots so that no helper runs them after
			// the call has gone, and free its entry. The job is not reused.
			j.stop.Store(true)
			for {
				if _, ok := j.claim(); !ok {
					break
				}
			}
			thePool.unpost(e)
		}
	}()
	late = j.runSlot(0)
	for {
		s, ok := j.claim()
		if !ok {
			break
		}
		late = j.runSlot(s) || !j.woke || late
	}
	thePool.unpost(e)
	unposted = true
	return j.join() || late
}

// jobStats collects per-slot statistics, each element written only by the
// slot's driver.
type jobStats struct {
	workers []slotStats
}

// slotStats is one slot's statistics on cache lines of its own: they are
// written after every piece, and a neighbour slot's writes to a shared line
// were measured to slow both down.
type slotStats struct {
	WorkerStats
	_ [128]byte
}
