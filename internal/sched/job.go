package sched

import (
	"context"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/ctxerr"
	"github.com/stealkit/stealkit/internal/monotime"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// A Job is one parallel loop call: a partition.Run whose worker slots are
// driven by the caller (slot 0, then every slot no helper claimed) and by
// pool helpers. Each slot is claimed exactly once, through claims, and
// driven by the goroutine that claimed it until Next reports no more work
// or the job stops.
//
// Who calls what: the caller (the goroutine of the call) sets the fields,
// calls Start, drives slot 0 and every slot it claims, and joins (Drive);
// any goroutine may claim; the goroutine that claimed a slot drives it and
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
// Jobs are reused (Reset). A helper may still hold a pointer to a job it
// found posted after the job's call has returned and the job has been
// reused: it touches only the atomics claims and seq before its claim
// succeeds, and a claim of a reused job is a claim of the new call's slot,
// whose fields were set before claims was stored.
type Job struct {
	// What a helper reads to claim and run a slot comes first, on as few
	// cache lines as it fits: the caller writes these fields on every
	// call, so each line a helper reads is a line it must fetch from the
	// caller's core before its slot starts. What only the caller, or a
	// failing slot, touches follows.

	// claims packs slots<<32 | next, next being the next unclaimed slot:
	// one word, so that a claim is one CAS and a full job (next == slots)
	// is never changed. Stored once per call, after every other field is
	// set: that store publishes the call to the slots' claimers.
	claims atomic.Uint64
	seq    atomic.Uint64 // the posting table's seqs when posted: workers claim the newest first

	// finished counts the slots that have finished, plus joinParked once the
	// caller blocks on wake: the slot whose add makes it slots+joinParked
	// sends one token (see join).
	finished atomic.Int64

	Run   partition.Run          // the call's run, set by Start: slot s takes its ranges from Run.Next(s)
	split partproto.SplittingRun // Run, if it splits; else nil
	body  Body                   // set by Init, or by SetBody before a call
	halt  <-chan struct{}        // ctx.Done(), polled before every chunk; nil if it can never be done
	Stats []SlotStats            // nil unless the call collects statistics, one per slot
	Slots int32                  // the call's worker slots, slot 0 the caller's; set before Start

	// Slots that found no work while another holds an overdue range poll
	// for a while, then sleep until a slot finishes a chunk or stops.
	sleepers atomic.Int32 // slots asleep, or about to sleep, on nudge

	stop    atomic.Bool // set on the first error, panic or cancellation: no new chunk starts
	Labeled bool        // Labels is set: the call has a WithLabel

	cut      atomic.Bool // a slot stopped with work possibly left
	mu       sync.Mutex  // guards err, panic, canceled and tokens
	err      error
	panic    any           // the first panic, as wrap made it
	canceled error         // the context's error, once it is done
	nudge    sync.Cond     // on mu; signalled with a token added to tokens
	tokens   int           // guarded by mu: wake-ups not yet taken by a sleeper
	wake     chan struct{} // buffered, empty between calls; made once per job object

	ctx context.Context // nil for calls without a context

	Call   string                       // the entry point, passed to wrap
	wrap   func(call string, r any) any // wraps a recovered panic, in the deferred function that recovered it; set once per job object (Init)
	Label  string                       // trace region name, "" for "pfor"
	Labels pprof.LabelSet               // loop=name, added to a helper's own labels while it runs a slot

	woke bool // the post woke sleeping workers for the job; written by the caller only
}

// A Body is a loop call's function: Call runs it over [lo, hi) as worker
// slot slot, on the goroutine driving that slot.
type Body interface {
	Call(slot, lo, hi int) error
}

// SlotStats is one slot's statistics on cache lines of its own: they are
// written after every piece, and a neighbour slot's writes to a shared line
// were measured to slow both down. Each is written only by the slot's
// driver.
type SlotStats struct {
	Items  int64         // indices processed
	Chunks int64         // ranges handed to the body
	Busy   time.Duration // time spent in the body
	_      [128]byte
}

// Chunk counts in ws one chunk of the slot's: a range handed to the body,
// begun at t0 (time.Now before the body's first call on it) and ending now,
// of which n items are processed. Only the slot's driver calls it, once per
// chunk, when the chunk ends, also when the body failed or panicked on it.
func (ws *SlotStats) Chunk(t0 time.Time, n int) {
	ws.Chunks++
	ws.Items += int64(n)
	ws.Busy += time.Since(t0)
}

// joinParked is added to finished by a caller that blocks in join.
const joinParked = 1 << 32

// Init prepares a new job object for its calls: b is its body until
// SetBody, and wrap its panic wrapper for every call.
func (j *Job) Init(b Body, wrap func(call string, r any) any) {
	j.wake = make(chan struct{}, 1)
	j.nudge.L = &j.mu
	j.body, j.wrap = b, wrap
}

// SetBody makes b the job's body from its next call on. It is called
// between calls, before Start.
func (j *Job) SetBody(b Body) { j.body = b }

// SetContext makes the job stop once ctx is done.
func (j *Job) SetContext(ctx context.Context) { j.ctx, j.halt = ctx, ctx.Done() }

// Start sets the job's run and publishes the call to claimers: slot 0 is
// the caller's. Every other field must be set before.
func (j *Job) Start(run partition.Run) {
	j.Run = run
	j.split, _ = run.(partproto.SplittingRun)
	j.claims.Store(uint64(j.Slots)<<32 | 1) // publishes the call: slot 0 is the caller's
}

// open reports whether j may have slots left to claim.
func (j *Job) open() bool {
	c := j.claims.Load()
	return uint32(c) < uint32(c>>32)
}

// claim claims the next unclaimed slot of j, if any. Any goroutine may call
// it; a job whose slots are all claimed is left unchanged.
func (j *Job) claim() (int, bool) {
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
func (j *Job) finish() {
	want := int64(j.Slots) + joinParked // read before the add: j may be reused after it
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
func (j *Job) join() (blocked bool) {
	slots := int64(j.Slots)
	var start time.Time
	for i := 1; ; i++ {
		step(stepJoinLoad)
		f := j.finished.Load()
		if f == slots {
			return false
		}
		if i%SpinYield == 0 {
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

// SpinYield is how many looks a spinning extra helper or join makes
// between two yields.
const SpinYield = 16

// panicked stops the job on a panic in the body, recovered with value r in
// the deferred function of the goroutine that panicked, and records it with
// the stack of the panic site.
func (j *Job) panicked(r any) {
	j.stop.Store(true) // before capturing the stack, which takes a while
	j.fail(nil, j.wrap(j.Call, r))
}

// fail records the first error or panic and stops the job. A panic replaces
// an earlier error: panics always reach the caller.
func (j *Job) fail(err error, p any) {
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
func (j *Job) stopped() bool {
	if j.halt == nil && !j.stop.Load() { // small enough to inline, as slots call it before every chunk
		return false
	}
	return j.stoppedSlow()
}

// stoppedSlow is stopped for a job that has a context or has stopped.
func (j *Job) stoppedSlow() bool {
	if j.halt != nil {
		select {
		case <-j.halt:
			j.mu.Lock()
			j.canceled = ctxerr.Of(j.ctx)
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

// Drive runs the caller's part of the job: slot 0, then every slot no helper
// has claimed; then it frees j's entry e of p's posting table (from Post),
// waits for the helpers' slots to finish, and, if the caller ran a slot of a
// helper's and the call took over yieldAfter from the caller's claim of that
// slot to the end of the join, yields the processor once. It reports whether
// the helpers were late: the caller had to block for them, or ran a slot
// itself although its post woke no worker, so that workers were searching (or
// busy) but did not run it; and whether it cannot tell: it ran the slot of a
// helper its post woke, which a thread off its core and one slow to wake
// explain alike.
func (j *Job) Drive(p *Pool, e int) (late, unknown bool) {
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
			p.loops.Remove(e)
		}
	}()
	late = j.runSlot(0)
	ranOther := false
	var since int64 // the clock when the caller claimed the first slot not its own
	for {
		s, ok := j.claim()
		if !ok {
			break
		}
		if !ranOther {
			// Only now: a call whose helpers claim their slots reads no
			// clock here.
			ranOther, since = true, monotime.Now()
		}
		late = j.runSlot(s) || !j.woke || late
	}
	p.loops.Remove(e)
	unposted = true
	blocked := j.join()
	if ranOther && monotime.Now()-since > yieldAfter {
		// A helper that should have claimed a slot may be runnable but
		// not running: the Go scheduler queues a goroutine that this one
		// wakes on this one's processor, where it waits until this
		// goroutine blocks or yields or another processor steals it, and a
		// goroutine may stay queued behind this one otherwise too. A caller
		// that runs every slot itself never lets it run, call after call,
		// while the other processors idle. Yield once, so that it runs and
		// the scheduler spreads the goroutines out again before the next
		// call; but not where the helpers' slots took the caller less than
		// a running helper takes to claim a slot, which the caller
		// finished sooner alone.
		runtime.Gosched()
	}
	late = blocked || late
	return late, !late && ranOther
}

// yieldAfter is how long a caller's run of helpers' slots, and the join after
// it, must have taken for Drive to yield: well above the time a searching
// helper on a processor of its own takes to claim a slot (a handshake between
// cores and a look at the posting table).
const yieldAfter = int64(time.Microsecond)

// Outcome releases the finished job's run and returns what the call
// returns: the first panic (as wrap made it), else the first error a body
// returned, else, if the job was cut short by its context, the context's
// error. Every slot must have finished.
func (j *Job) Outcome() (panicked any, err error) {
	if r, ok := j.Run.(partproto.Releaser); ok { // every slot has returned
		r.Release()
	}
	if j.panic != nil {
		return j.panic, nil
	}
	if j.err != nil {
		return nil, j.err
	}
	if j.cut.Load() {
		return nil, j.canceled
	}
	return nil, nil
}

// Reset clears j after its call for the next one. Every slot has finished:
// only the caller refers to j's fields.
func (j *Job) Reset() {
	j.finished.Store(0)
	j.Run, j.split, j.Slots = nil, nil, 0
	j.stop.Store(false)
	j.err, j.panic, j.canceled = nil, nil, nil
	j.cut.Store(false)
	j.ctx, j.halt = nil, nil
	j.tokens = 0
	j.Call, j.Label, j.Labels, j.Labeled = "", "", pprof.LabelSet{}, false
	j.Stats, j.woke = nil, false
}

// region starts a runtime/trace region for a worker slot, to be ended when
// the slot returns: call it only while tracing is on (trace.IsEnabled), so
// that a slot run without tracing defers nothing.
func (j *Job) region() *trace.Region {
	name := j.Label
	if name == "" {
		name = "pfor"
	}
	return trace.StartRegion(context.Background(), name)
}
