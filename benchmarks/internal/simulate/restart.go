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
// RestartNs), and a transfer trial just after it (see TransferTrial), if procs is 2 or more.
func (cal *Calibrator) RestartTrial() {
	if k := len(cal.plans); k >= 2 {
		cal.restart = append(cal.restart, cal.restartTrial(k))
		cal.inst.Reset()
		cal.restartTransfer = append(cal.restartTransfer, cal.TransferTrial())
	}
}

// restartChunk is the length of the chunks of a restart trial: dynamic's chunks.
const restartChunk = impls.DynamicChunk

// restartTrial runs k goroutines over the whole range twice, calls times each: once in
// contiguous parts, goroutine g the g-th k-th of the range, and once taking chunks of
// restartChunk items in order from a shared cursor, as dynamic's workers do, in an order that
// alternates from trial to trial. It returns what a chunk of the second pass cost beyond the
// same items in the first: (CPU time of the cursor pass - CPU time of the contiguous pass),
// all goroutines together, over the chunks. The figure includes each chunk's take from the
// cursor (see RestartNs). Both passes run the same items, so the figure does not depend on
// how well the workload's cost model or the calibration's samples describe them. In both, the
// k goroutines end each call together before the next call's chunks, which are the same
// items, as a loop's calls end at their join (see restartJoin), and the waits there are not
// counted.
//
// Why a shared cursor and not a fixed assignment (goroutine g the chunks g, g+k, ...): a
// cursor keeps the goroutines in lock-step on neighbouring chunks, each writing next to the
// lines the other is writing and its prefetchers fetching, and that is what makes dynamic's
// chunks expensive on a memory-bound loop. BenchmarkRestartPattern measures it on saxpy at a
// quarter of its size with 2 goroutines: a fixed assignment runs clearly slower than
// contiguous halves, and the shared cursor about twice as slow again, as slow as dynamic
// through pfor.
//
// Why joins in both passes: with joins in the cursor pass only, which yielded at once, tiny's
// restart read several times what a chunk of dynamic through pfor costs beyond static, and
// tiny/dynamic was predicted far too slow. With joins in both, in trials of each version
// interleaved, tiny's restart fell to about a third of what it was, and saxpy's, spmv's and
// query's stayed as they were, within the spread of their trials.
func (cal *Calibrator) restartTrial(k int) float64 {
	n := cal.inst.Len()
	chunks := (n + restartChunk - 1) / restartChunk
	waited := make([]time.Duration, k) // each goroutine's waits at the joins
	// Both passes join at the cursors' counts of arrivals, reset after each pass.
	contiguous := func(g int) {
		for call := range cal.calls {
			cal.inst.Chunk(g*n/k, (g+1)*n/k)
			if call+1 < cal.calls {
				waited[g] += restartJoin(&cal.cursors[call].arrived, k)
			}
		}
	}
	cursor := func(g int) {
		for call := range cal.calls {
			c := &cal.cursors[call]
			for j := int(c.next.Add(1) - 1); j < chunks; j = int(c.next.Add(1) - 1) {
				cal.inst.Chunk(j*restartChunk, min(n, (j+1)*restartChunk))
			}
			if call+1 < cal.calls {
				waited[g] += restartJoin(&c.arrived, k)
			}
		}
	}
	// reset returns the pass's waits and zeroes them and the cursors for the next pass.
	reset := func() (waits time.Duration) {
		for g, w := range waited {
			waits += w
			waited[g] = 0
		}
		for i := range cal.cursors {
			cal.cursors[i].next.Store(0)
			cal.cursors[i].arrived.Store(0)
		}
		return waits
	}
	var cont, curs time.Duration
	if len(cal.restart)%2 == 0 {
		cont = totalTime(k, contiguous) - reset()
		curs = totalTime(k, cursor) - reset()
	} else {
		curs = totalTime(k, cursor) - reset()
		cont = totalTime(k, contiguous) - reset()
	}
	return float64((curs - cont).Nanoseconds()) / float64(chunks*cal.calls)
}

// restartJoin counts the calling goroutine as arrived at a restart trial's join, waits until
// k have arrived, and returns how long it waited, in the thread's CPU time where there is
// one: a thread descheduled while it waits spends less CPU time than the wall clock shows
// (taking out the wall time made tiny's restarts negative, by microseconds a chunk). As
// pfor's helpers do between calls, it spins first, and yields only after joinSpin, so that a
// join costs about what pfor's does; a join that yields at once, with the goroutines locked
// to their threads, hands the thread's P to another thread and back.
func restartJoin(arrived *atomic.Int64, k int) time.Duration {
	t := time.Now()
	cpu0, cpuOK := threadCPU()
	arrived.Add(1)
	for arrived.Load() < int64(k) {
		if time.Since(t) > joinSpin {
			runtime.Gosched()
		}
	}
	if cpu1, ok := threadCPU(); cpuOK && ok {
		return cpu1 - cpu0
	}
	return time.Since(t)
}

// joinSpin is how long a restart trial's join spins before it yields: as long as pfor's
// helpers look for work before they park.
const joinSpin = 50 * time.Microsecond

// threadTimes runs pass(g) on k goroutines, g = 0..k-1, each locked to its thread so that
// the thread's CPU time is the goroutine's, and returns the CPU time of each (wall time
// where the platform cannot tell; see threadCPU).
func threadTimes(k int, pass func(g int)) []time.Duration {
	spent := make([]time.Duration, k)
	var wg sync.WaitGroup
	for g := range k {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w0 := time.Now()
			cpu0, cpuOK := threadCPU()
			pass(g)
			d := time.Since(w0)
			if cpu1, ok := threadCPU(); cpuOK && ok && cpu1 > cpu0 {
				d = cpu1 - cpu0
			}
			spent[g] = d
		})
	}
	wg.Wait()
	return spent
}

// totalTime returns the CPU time of k goroutines running pass, added up (see threadTimes).
func totalTime(k int, pass func(g int)) time.Duration {
	var total time.Duration
	for _, d := range threadTimes(k, pass) {
		total += d
	}
	return total
}

// restartCursor is the shared cursor of a restart trial's call, and the count of goroutines
// done with the call (in either pass), on a cache line of their own.
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
// A trial's chunk also pays its take from the shared cursor and, nearly always, the transfer
// of the cursor's cache line from the other goroutine's core, which the model charges apart:
// the take of the partitioner (takeNs, the cost of one take with as many goroutines
// contending, see Machine.TakeNs) and the transfer. RestartNs subtracts from each trial's
// figure the transfer timed just after it, and from their median the take, so that a model
// that charges all three charges a dynamic chunk what the trials measured. Why each trial's
// own transfer: the transfer moves between two levels, the higher several times the lower
// (see TransferTrial); less one figure of the machine's, timed once at the start of a run at
// the higher level, saxpy's restarts fell under the take and the transfer, RestartNs reported
// 0, and saxpy/dynamic was predicted too fast, outside the tolerance.
//
// The noise: a restart figure is a difference of two times of whole passes, so the spread of
// the passes' times carries over to it. For a workload whose chunks of 64 items take
// milliseconds (mandelbrot's rows) that swamps any restart, and the figures fall on either
// side of the take. So the median counts only if at least three quarters of the trials found
// a chunk dearer than its take (see excessOver); otherwise RestartNs reports 0.
func (cal *Calibrator) RestartNs(takeNs float64) float64 {
	return restartAt(cal.restart, cal.restartTransfer, takeNs, 0)
}

// RestartTrials returns the figure of every restart trial so far, in order, each with its
// chunk's take and transfer (see RestartNs).
func (cal *Calibrator) RestartTrials() []float64 { return slices.Clone(cal.restart) }

// RestartTransfers returns the transfer trial made just after each restart trial, in order
// (see RestartNs).
func (cal *Calibrator) RestartTransfers() []float64 { return slices.Clone(cal.restartTransfer) }

// restartAt returns the restart that the restart trials trials, each less the transfer
// trial made just after it (transfers[i]), give with a take of takeNs (see RestartNs), from
// the trials made while the transfer read as it did for a repetition whose transfer read
// transferNs: those whose own transfer is within a factor of sameState of it, if there are
// minSameState of them. Otherwise, or with a transferNs of 0, it counts every trial.
//
// Why: a restart trial's chunk costs more when the transfer is dear, but not by the
// transfer's difference, and not the same on every workload. Less its transfer, a saxpy
// restart trial reads about half as much at the transfer's higher level as at its lower (the
// trial itself grows by less than the transfer does), tiny's reads next to nothing at the
// lower level and a clear cost at the higher, and spmv's grows at the higher. So a
// repetition made at one level and charged the median over trials at both was charged a
// restart of neither: in a run whose transfer flipped between its levels from trial to trial,
// saxpy's restart came out lower than in any other run and saxpy/dynamic was predicted too
// fast, outside the tolerance.
func restartAt(trials, transfers []float64, takeNs, transferNs float64) float64 {
	var same, all []float64
	for i, f := range trials {
		t := transfers[i]
		all = append(all, f-t)
		if transferNs > 0 && t*sameState >= transferNs && t <= transferNs*sameState {
			same = append(same, f-t)
		}
	}
	if len(same) >= minSameState {
		return excessOver(same, takeNs)
	}
	return excessOver(all, takeNs)
}

// sameState is how far apart, as a factor, two transfer trials may read and still count as
// made in one state of the machine (see restartAt): the transfer's two levels (see
// TransferTrial) lie further apart than that factor, and the trials of one level closer.
const sameState = 2

// minSameState is how many restart trials of the repetition's state restartAt needs to count
// them alone.
const minSameState = 5
