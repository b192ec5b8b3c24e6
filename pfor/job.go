package pfor

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

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

	label  string          // trace region name, "" for "pfor"
	labels context.Context // pprof labels for helpers, nil if none

	stats *jobStats // nil unless WithStats
}

// runSlot drives slot s until its run has no more work or the job stops.
// A panic in the body is recovered here, with the stack of the panic site,
// and stops the job; the caller re-raises it after every slot has finished.
func (j *job) runSlot(s int) {
	defer func() {
		if r := recover(); r != nil {
			j.stop.Store(true) // before capturing the stack, which takes a while
			j.fail(nil, &PanicError{Value: r, Stack: debug.Stack()})
		}
		if j.done.Add(1) == j.slots {
			j.wake <- struct{}{}
		}
	}()
	defer j.region()()
	if j.stats != nil {
		j.runSlotMeasured(s)
		return
	}
	for {
		if j.stopped() {
			return
		}
		lo, hi, ok := j.run.Next(s)
		if !ok {
			return
		}
		if err := j.body(s, lo, hi); err != nil {
			j.fail(err, nil)
			return
		}
	}
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
	workers []WorkerStats
}

func (j *job) runSlotMeasured(s int) {
	ws := &j.stats.workers[s]
	for {
		if j.stopped() {
			return
		}
		lo, hi, ok := j.run.Next(s)
		if !ok {
			return
		}
		t0 := time.Now()
		err := j.body(s, lo, hi)
		ws.Busy += time.Since(t0)
		ws.Chunks++
		ws.Items += int64(hi - lo)
		if err != nil {
			j.fail(err, nil)
			return
		}
	}
}
