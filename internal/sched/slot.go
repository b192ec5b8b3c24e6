package sched

import (
	"runtime"
	"runtime/trace"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/internal/partproto"
)

// runSlot drives slot s until its run has no more work or the job stops,
// and reports whether the slot slept meanwhile, waiting for a range another
// slot held.
// A panic in the body is recovered here, with the stack of the panic site,
// and stops the job; the caller re-raises it after every slot has finished.
// A body that ends its goroutine with runtime.Goexit stops the job as a
// panic does, with the value GoexitInBody: on a helper, the rest of its
// chunk never runs, and the call must not return as if it had.
func (j *Job) runSlot(s int) (slept bool) {
	asleep := false // counted in sleepers
	exited := true  // until slotLoop returns: a Goexit leaves it set
	defer func() {
		r := recover()
		if r == nil && exited {
			r = GoexitInBody
		}
		if r != nil {
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
	slept = j.slotLoop(s, &asleep)
	exited = false
	return slept
}

// GoexitInBody is the panic value of a call whose body called
// runtime.Goexit (on a helper, the call re-raises it; on the caller's
// goroutine, the call never returns).
const GoexitInBody = "runtime.Goexit called in a loop body: the rest of its chunk did not run"

// slotLoop is runSlot's loop; *asleep tells runSlot's deferred call whether
// the slot is counted in sleepers.
func (j *Job) slotLoop(s int, asleep *bool) (slept bool) {
	polls := 0
	if trace.IsEnabled() {
		defer j.region().End()
	}
	split := j.split
	var ws *SlotStats
	if j.Stats != nil {
		ws = &j.Stats[s]
	}
	// A run that does not split has no pieces and no sleeping slots (only
	// a splitting run's slots sleep): without statistics, its slots call
	// the body alone, for runs of many small ranges (guided's, dynamic's).
	direct := split == nil && ws == nil
	for {
		if j.stopped() {
			return
		}
		step(stepNext)
		lo, hi, ok := j.Run.Next(s)
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
			case *asleep:
				step(stepSleep)
				j.sleep()
				slept = true
				step(stepUncount)
				j.sleepers.Add(-1)
				*asleep = false
				polls = idlePolls // one more look, then back to sleep
			case polls < idlePolls:
				polls++
				runtime.Gosched()
			default:
				// Count as a sleeper before looking again, so that a
				// chunk finished after that look wakes this slot.
				step(stepCount)
				j.sleepers.Add(1)
				*asleep = true
			}
			continue
		}
		if *asleep {
			step(stepUncount)
			j.sleepers.Add(-1)
			*asleep = false
		}
		polls = 0
		var err error
		switch {
		case direct:
			err = j.body.Call(s, lo, hi)
		case ws == nil:
			err = j.process(s, lo, hi, split, nil)
			j.wakeSleeper()
		default:
			err = j.processCounted(s, lo, hi, split, ws)
			j.wakeSleeper()
		}
		if err != nil {
			j.fail(err, nil)
			return
		}
	}
}

// idlePolls is how many times a slot yields and polls for a give-back
// before it sleeps: long enough for several pieces. A variable so that
// the interleaving tests can shorten the polling.
var idlePolls = 64

// wakeSleeper wakes a sleeping slot, if there is one, to look for work
// again. A woken slot that finds none goes back to sleep, and wakes the
// next one when it stops.
func (j *Job) wakeSleeper() {
	if step(stepWakeLoad); j.sleepers.Load() > 0 {
		step(stepWakeToken)
		j.mu.Lock()
		j.tokens++
		j.mu.Unlock()
		j.nudge.Signal()
	}
}

// sleep waits for a token from wakeSleeper and takes it.
func (j *Job) sleep() {
	j.mu.Lock()
	for j.tokens == 0 {
		j.nudge.Wait()
	}
	j.tokens--
	j.mu.Unlock()
}

// process runs the body over [lo, hi), in pieces if the run can split
// (split.Piece items each): between pieces the worker checks whether the job
// has stopped and, where the run's Quiet word has moved since the range's
// Next and before the last piece, whether another worker is hungry and, if
// so, gives back the pieces it has not started. If ws is not nil, it adds to ws.Items the
// items of the pieces the body has returned from (all of them, if the range
// is one piece); processCounted counts the chunk.
func (j *Job) process(s, lo, hi int, split partproto.SplittingRun, ws *SlotStats) error {
	if split == nil || hi-lo < 2 {
		if ws != nil {
			ws.Items += int64(hi - lo)
		}
		return j.body.Call(s, lo, hi)
	}
	// No defer here, and no check between pieces of how much of the range
	// is left but the loop's own: the path a worker takes from one piece to
	// the next of a range that no one else wants, where the run's word
	// stands still and Hungry is not called.
	step := max(1, split.Piece(s))
	if hi-lo > step {
		word, calm := split.Quiet(s)
		var loud atomic.Uint64 // holds 0: a word that never holds calm
		if word == nil {
			word, calm = &loud, 1 // Hungry after every piece
		}
		last := hi - step // the last piece starts at last or above
		for {
			end := lo + step
			if err := j.body.Call(s, lo, end); err != nil {
				return err
			}
			if ws != nil {
				ws.Items += int64(step)
			}
			lo = end
			if j.stop.Load() { // an error, panic or cancellation elsewhere
				j.cut.Store(true)
				return nil
			}
			if lo >= last {
				break // the next piece is the last: Hungry is called
			}
			if word.Load() != calm && split.Hungry(s, lo) {
				split.GiveBack(s, lo)
				return nil
			}
		}
		if split.Hungry(s, lo) {
			split.GiveBack(s, lo)
			return nil
		}
	}
	err := j.body.Call(s, lo, hi) // the last piece
	if err == nil && ws != nil {
		ws.Items += int64(hi - lo)
	}
	return err
}

// processCounted is process for a slot with statistics: it also counts the
// range in ws as one chunk, with its time, when process returns or panics.
func (j *Job) processCounted(s, lo, hi int, split partproto.SplittingRun, ws *SlotStats) error {
	defer ws.Chunk(time.Now(), 0) // process counts the items
	return j.process(s, lo, hi, split, ws)
}
