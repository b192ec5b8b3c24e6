package simulate

import "math"

// Neighbour is a busy process beside the call: one thread that always wants a core, sharing
// Cores cores with the call's workers, one thread each. The operating system time-slices the
// workers+1 threads fairly and in turn, in slices of SliceNs: in slice k (counted from PhaseNs
// before the call starts) thread i runs if (i - k·Cores) mod (workers+1) < Cores, the
// neighbour being thread number workers. With 2 workers on 2 cores each of the three threads
// runs 2 slices in 3 and at any instant one of them is off its core. With Cores ≥ workers+1
// nothing is off its core and the call runs as without a neighbour.
//
// A worker off its core makes no progress: the items it is processing wait, and so does its
// next Next. What it holds in the run stays in memory, so other workers steal from it as
// from a running one.
type Neighbour struct {
	SliceNs float64 `json:"slice_ns"` // the length of a time slice; must be above 0
	Cores   int     `json:"cores"`    // cores the workers and the neighbour share; at least 1
	PhaseNs float64 `json:"phase_ns"` // how far into the rotation the call starts
}

// slice returns the slice that time t falls in.
func (nb *Neighbour) slice(t float64) int64 {
	return int64(math.Floor((t + nb.PhaseNs) / nb.SliceNs))
}

// start returns when slice k starts.
func (nb *Neighbour) start(k int64) float64 { return float64(k)*nb.SliceNs - nb.PhaseNs }

// runs reports whether thread i of threads runs in slice k.
func (nb *Neighbour) runs(i, threads int, k int64) bool {
	if nb.Cores >= threads {
		return true
	}
	r := (int64(i) - k*int64(nb.Cores)) % int64(threads)
	if r < 0 {
		r += int64(threads)
	}
	return r < int64(nb.Cores)
}

// after returns when thread i of threads, at time t, has run for work more: the end of the
// work, stretched by the slices it spends off its core. With work 0 it returns t if the
// thread runs at t, else the start of its next slice on a core. A nil nb runs every thread
// all the time: t + work.
func (nb *Neighbour) after(i, threads int, t, work float64) float64 {
	if nb == nil || nb.Cores >= threads {
		return t + work
	}
	k := nb.slice(t)
	if nb.start(k+1) <= t { // t's slice by rounding: t sits on the next one's start
		k++
	}
	for {
		end := nb.start(k + 1)
		if nb.runs(i, threads, k) {
			if t+work <= end && (work > 0 || t < end) {
				return t + work
			}
			work -= end - t
		}
		t = end
		k++
	}
}

// off reports whether thread i of threads is off its core at t.
func (nb *Neighbour) off(i, threads int, t float64) bool {
	return nb != nil && nb.after(i, threads, t, 0) > t
}

// Phases is how many starts in the neighbour's rotation a prediction beside a neighbour
// averages over (see Workload.run): a call lasts a few slices, so whether its workers
// start on or off their cores moves its time, and a process making call after call starts
// them at every phase.
const Phases = 12

// phased returns nb starting the call at the j-th of Phases phases, evenly spread over one
// turn of the rotation (threads slices).
func (nb Neighbour) phased(j, threads int) *Neighbour {
	nb.PhaseNs = float64(j) * nb.SliceNs * float64(threads) / Phases
	return &nb
}
