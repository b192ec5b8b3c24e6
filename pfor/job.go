package pfor

import (
	"context"
	"runtime"
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
	seq    atomic.Uint64 // the pool's gen when posted: helpers claim the newest first

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

	call   string          // the entry point, for *PanicError
	label  string          // trace region name, "" for "pfor"
	labels context.Context // pprof labels for helpers, nil if none

	stats *jobStats // nil unless WithStats
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

// join waits until every slot has finished: it polls, yielding, for a
// while (the helpers' last chunks of a short call end within
// microseconds), then blocks, leaving the thread to whatever else is
// runnable, which is what a helper whose thread the operating system has
// taken off its core needs.
func (j *job) join() {
	slots := int64(j.slots)
	var start time.Time
	for i := 1; ; i++ {
		f := j.finished.Load()
		if f == slots {
			return
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
		if j.finished.CompareAndSwap(f, f+joinParked) { // commits to blocking: the last finish sends
			<-j.wake
			return
		}
	}
}

const (
	joinPolls = 256                   // looks at finished before join reads the clock
	joinSpin  = 20 * time.Microsecond // how long join polls before it blocks
)

// runSlot drives slot s until its run has no more work or the job stops.
// A panic in the body is recovered here, with the stack of the panic site,
// and stops the job; the caller re-raises it after every slot has finished.
func (j *job) runSlot(s int) {
	polls, asleep := 0, false // asleep: counted in sleepers
	defer func() {
		if r := recover(); r != nil {
			j.panicked(r)
		}
		if asleep {
			step(stepUncount)
			j.sleepers.Add(-1)
		}
		j.wakeSleeper()
		step(stepFinish)
		j.finish()
	}()
	defer j.region()()
	split := j.split
	var ws *WorkerStats
	if j.stats != nil {
		ws = &j.stats.workers[s].WorkerStats
	}
	for {
		if j.stopped() {
			return
		}
		step(stepNext)
		lo, hi, ok := j.run.Next(s)
		if !ok {
			if split == nil {
				return
			}
			if step(stepIdle); !split.Idle(s) {
				return
			}
			// Another worker holds a range it may give back. Yield and poll
			// for a while: a give-back comes within a piece. Then sleep
			// until a slot finishes a chunk or stops: when the holder is
			// preempted (a neighbour process busy on this core), a poller
			// that spins keeps a core from it, and the call waits for the
			// operating system to run the holder again.
			switch {
			case asleep:
				step(stepSleep)
				j.sleep()
				step(stepUncount)
				j.sleepers.Add(-1)
				asleep = false
				polls = idlePolls // one more look, then back to sleep
			case polls < idlePolls:
				polls++
				runtime.Gosched()
			default:
				// Count as a sleeper before looking again, so that a
				// chunk finished after that look wakes this slot.
				step(stepCount)
				j.sleepers.Add(1)
				asleep = true
			}
			continue
		}
		if asleep {
			step(stepUncount)
			j.sleepers.Add(-1)
			asleep = false
		}
		polls = 0
		err := j.process(s, lo, hi, split, ws)
		j.wakeSleeper()
		if err != nil {
			j.fail(err, nil)
			return
		}
	}
}

// idlePolls is how many times a slot yields and polls for a give-back
// before it sleeps: about 20-60 us here, several pieces. A variable so that
// the interleaving tests can shorten the polling.
var idlePolls = 64

// wakeSleeper wakes a sleeping slot, if there is one, to look for work
// again. A woken slot that finds none goes back to sleep, and wakes the
// next one when it stops.
func (j *job) wakeSleeper() {
	if step(stepWakeLoad); j.sleepers.Load() > 0 {
		step(stepWakeToken)
		j.mu.Lock()
		j.tokens++
		j.mu.Unlock()
		j.nudge.Signal()
	}
}

// sleep waits for a token from wakeSleeper and takes it.
func (j *job) sleep() {
	j.mu.Lock()
	for j.tokens == 0 {
		j.nudge.Wait()
	}
	j.tokens--
	j.mu.Unlock()
}

// process runs the body over [lo, hi), in pieces if the run can split
// (split.Piece items each): between pieces the worker checks whether the job
// has stopped and whether another worker is hungry and, if so, gives back
// the pieces it has not started.
func (j *job) process(s, lo, hi int, split partproto.SplittingRun, ws *WorkerStats) error {
	var t0 time.Time
	if ws != nil {
		t0 = time.Now()
		ws.Chunks++
		defer func() { ws.Busy += time.Since(t0) }()
	}
	if split == nil || hi-lo < 2 {
		if ws != nil {
			ws.Items += int64(hi - lo)
		}
		return j.body.call(s, lo, hi)
	}
	step := max(1, split.Piece(s))
	for lo < hi {
		end := lo + min(step, hi-lo)
		if err := j.body.call(s, lo, end); err != nil {
			return err
		}
		if ws != nil {
			ws.Items += int64(end - lo)
		}
		lo = end
		if lo < hi && j.stop.Load() { // an error, panic or cancellation elsewhere
			j.cut.Store(true)
			return nil
		}
		if lo < hi && split.Hungry(s) {
			split.GiveBack(s, lo)
			return nil
		}
	}
	return nil
}

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
// and waits for the helpers' slots to finish.
func (j *job) drive(e int) {
	j.runSlot(0)
	for {
		s, ok := j.claim()
		if !ok {
			break
		}
		j.runSlot(s)
	}
	thePool.unpost(e)
	j.join()
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
