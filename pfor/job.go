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
// helpers. Each slot is claimed exactly once, through next, and driven by the
// goroutine that claimed it until Next reports no more work or the job stops.
type job struct {
	run   partition.Run
	body  func(slot, lo, hi int) error
	slots int32

	next atomic.Int32  // next unclaimed slot
	done atomic.Int32  // slots finished
	wake chan struct{} // the slot that finishes last sends one token
	stop atomic.Bool   // set on the first error, panic or cancellation: no new chunk starts

	mu       sync.Mutex // guards err, panic and canceled
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
			j.sleepers.Add(-1)
		}
		j.wakeSleeper()
		if j.done.Add(1) == j.slots {
			j.wake <- struct{}{}
		}
	}()
	defer j.region()()
	split, _ := j.run.(partproto.SplittingRun)
	var ws *WorkerStats
	if j.stats != nil {
		ws = &j.stats.workers[s].WorkerStats
	}
	for {
		if j.stopped() {
			return
		}
		lo, hi, ok := j.run.Next(s)
		if !ok {
			if split == nil || !split.Idle(s) {
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
				j.sleep()
				j.sleepers.Add(-1)
				asleep = false
				polls = idlePolls // one more look, then back to sleep
			case polls < idlePolls:
				polls++
				runtime.Gosched()
			default:
				// Count as a sleeper before looking again, so that a
				// chunk finished after that look wakes this slot.
				j.sleepers.Add(1)
				asleep = true
			}
			continue
		}
		if asleep {
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
// before it sleeps: about 20-60 us here, several pieces.
const idlePolls = 64

// wakeSleeper wakes a sleeping slot, if there is one, to look for work
// again. A woken slot that finds none goes back to sleep, and wakes the
// next one when it stops.
func (j *job) wakeSleeper() {
	if j.sleepers.Load() > 0 {
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
		return j.body(s, lo, hi)
	}
	step := max(1, split.Piece(s))
	for lo < hi {
		end := lo + min(step, hi-lo)
		if err := j.body(s, lo, end); err != nil {
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
// helper has claimed, then waits for the helpers' slots to finish.
func (j *job) drive() {
	j.runSlot(0)
	for {
		s := int(j.next.Add(1)) - 1
		if s >= int(j.slots) {
			break
		}
		j.runSlot(s)
	}
	thePool.retire(j)
	for i := 0; j.done.Load() != j.slots; i++ {
		if i < 1000 {
			runtime.Gosched()
			continue
		}
		<-j.wake
		break
	}
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
