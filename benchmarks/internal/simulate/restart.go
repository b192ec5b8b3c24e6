package simulate

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/impls"
)

// RestartTrial makes one trial of the cost of a restart with procs goroutines (see
// RestartNs), if procs is 2 or more.
func (cal *Calibrator) RestartTrial() {
	if k := len(cal.plans); k >= 2 {
		cal.restart = append(cal.restart, cal.restartTrial(k))
		cal.inst.Reset()
	}
}

// restartChunk is the length of the chunks of a restart trial: dynamic's chunks.
const restartChunk = impls.DynamicChunk

// restartTrial runs k goroutines over the whole range twice, calls times each: once in
// contiguous parts, goroutine g the g-th k-th of the range, and once taking chunks of
// restartChunk items in order from a shared cursor, as dynamic's workers do, in an order that
// alternates from trial to trial. It returns what a chunk of the second pass cost beyond the
// same items in the first: the difference of the two passes' busy times, all goroutines
// together, over the chunks (see busyTime). The figure includes each chunk's take from the
// cursor (see RestartNs). Both passes run the same items, so the figure does not depend on how
// well the workload's cost model or the calibration's samples describe them; in both, the k
// goroutines end each call together, as a loop's end at its join, before the next call's
// chunks, which are the same items; and a busy time leaves out the waits at those joins, and
// so does not depend on how evenly the contiguous parts' costs fall.
//
// Why a shared cursor and not a fixed assignment (goroutine g the chunks g, g+k, ...): a
// cursor keeps the goroutines in lock-step on neighbouring chunks, each writing next to the
// lines the other is writing and its prefetchers fetching, and that is what makes dynamic's
// chunks expensive on a memory-bound loop. BenchmarkRestartPattern measures it on saxpy at a
// quarter of its size, 2 goroutines (20 passes, 3 runs): contiguous halves 4.4-4.7 ms, a fixed
// assignment 7.2-7.7 ms, the shared cursor 14.3-15.2 ms, dynamic through pfor 14.8-15.4 ms.
//
// Why joins in both passes and wall-clock busy times: an earlier version summed the threads'
// CPU times, with joins in the cursor pass only, their waits taken out. On the project's AMD
// VM its trials read tiny's restart at 0.5 to 2.3 µs a chunk (medians 0.55 to 1.15 µs in
// eight runs), while dynamic through pfor cost 0 to 0.1 µs a chunk more than static, and the
// predictions of tiny/dynamic came out 20% to 63% too slow. This version reads about 0.27 µs
// on tiny, 0.30 µs on saxpy (where pfor's dynamic costs 0.35 µs a chunk more than its static)
// and 0.39 µs on spmv, and nothing on uniform and mandelbrot (16 trials each).
func (cal *Calibrator) restartTrial(k int) float64 {
	n := cal.inst.Len()
	chunks := (n + restartChunk - 1) / restartChunk
	// join waits until the k goroutines have finished the call, and returns how long it
	// waited.
	join := func(c *restartCursor) time.Duration {
		t := time.Now()
		c.arrived.Add(1)
		for c.arrived.Load() < int64(k) {
			runtime.Gosched()
		}
		return time.Since(t)
	}
	contiguous := func(g int) (waited time.Duration) {
		for call := range cal.calls {
			cal.inst.Chunk(g*n/k, (g+1)*n/k)
			if call+1 < cal.calls {
				waited += join(&cal.cursors[call])
			}
		}
		return waited
	}
	cursor := func(g int) (waited time.Duration) {
		for call := range cal.calls {
			c := &cal.cursors[call]
			for j := int(c.next.Add(1) - 1); j < chunks; j = int(c.next.Add(1) - 1) {
				cal.inst.Chunk(j*restartChunk, min(n, (j+1)*restartChunk))
			}
			if call+1 < cal.calls {
				waited += join(c)
			}
		}
		return waited
	}
	reset := func() {
		for i := range cal.cursors {
			cal.cursors[i].next.Store(0)
			cal.cursors[i].arrived.Store(0)
		}
	}
	var cont, curs time.Duration
	if len(cal.restart)%2 == 0 {
		cont = busyTime(k, contiguous)
		reset()
		curs = busyTime(k, cursor)
	} else {
		curs = busyTime(k, cursor)
		reset()
		cont = busyTime(k, contiguous)
	}
	reset()
	return float64((curs - cont).Nanoseconds()) / float64(chunks*cal.calls)
}

// busyTime runs pass(g) on k goroutines, g = 0..k-1, and returns their busy times added up:
// each goroutine's wall time less the waits its pass reports.
func busyTime(k int, pass func(g int) (waited time.Duration)) time.Duration {
	busy := make([]time.Duration, k)
	var wg sync.WaitGroup
	for g := range k {
		wg.Go(func() {
			t := time.Now()
			waited := pass(g)
			busy[g] = time.Since(t) - waited
		})
	}
	wg.Wait()
	var total time.Duration
	for _, b := range busy {
		total += b
	}
	return total
}

// restartCursor is the shared cursor of a restart trial's call, and the count of goroutines
// done with the call, on a cache line of their own.
type restartCursor struct {
	_       [64]byte
	next    atomic.Int64
	arrived atomic.Int64
	_       [48]byte
}

// RestartNs returns what a chunk that does not continue its worker's previous range costs
// beyond its items, with 2 or more workers: the median of the trials' figures, or 0 if there
// were none (one core) or the median is within the noise of the measurement. It is the cost
// of a new memory stream (the hardware prefetchers must find it again, and its first cache
// lines and pages come from farther away) next to another core's (see restartTrial). A
// workload that streams memory, like saxpy, pays it on every one of dynamic's 64-item
// chunks; one that computes in registers, like the Spin loops, does not.
//
// A trial's chunk also pays its take from the shared cursor, which the model charges apart,
// as the take of the partitioner (takeNs, the cost of one take with as many goroutines
// contending, see Machine.TakeNs); RestartNs subtracts it, so that a model that charges both
// charges a dynamic chunk what the trials measured.
//
// The noise: a restart figure is a difference of two times of whole passes, so the spread of
// the passes' times carries over to it. For a workload whose chunks of 64 items take
// milliseconds (mandelbrot's rows) that swamps any restart, and the figures fall on either
// side of the take. So the median counts only if at least three quarters of the trials found
// a chunk dearer than its take (see excessOver); otherwise RestartNs reports 0.
func (cal *Calibrator) RestartNs(takeNs float64) float64 {
	return excessOver(cal.restart, takeNs)
}

// RestartTrials returns the figure of every restart trial so far, in order, each with its
// chunk's take (see RestartNs).
func (cal *Calibrator) RestartTrials() []float64 { return slices.Clone(cal.restart) }
