package partition

import (
	"math/bits"
)

// The thief's side of a stealing run: how a worker whose range is empty
// finds a victim and takes a chunk of its range (see Next in stealing.go).

// steal makes w own a chunk stolen from another worker, and measures w's
// last ranges (see measure) before it sizes w's batches for the chunk, unless
// measured. It tries up to
// probes listed workers other than w, in order from a random one, and
// reports whether one of them had items to steal. With few workers holding
// items among many, random victims would miss them (with 4 tries, a thief
// finds one of 5 holders among 255 workers 8% of the time); the listed ones
// are found at the first try unless another thief got there first.
func (r *stealRun) steal(w int, measured bool) bool {
	me := &r.ws[w]
	n := len(r.ws)
	start := int(me.next() % uint64(n))
	tries := 0
	for i := 0; i < len(r.listed)+1 && tries < r.probes; i++ {
		k := (start/64 + i) % len(r.listed)
		word := r.listed[k].Load()
		if i == 0 {
			word &^= (uint64(1) << (start % 64)) - 1 // from start on
		} else if i == len(r.listed) {
			word &= (uint64(1) << (start % 64)) - 1 // wrapped round: before start
		}
		if k == w/64 {
			word &^= uint64(1) << (w % 64)
		}
		for ; word != 0 && tries < r.probes; word &= word - 1 {
			v := k*64 + bits.TrailingZeros64(word)
			tries++
			lo, hi, ok := me.own.StealFrom(&r.ws[v].own) // Next lists w after its take
			if r.ws[v].own.Stealable() == 0 {
				r.unlist(v)
			}
			if ok {
				r.stole(me, hi-lo, measured)
				return true
			}
			me.counts.FailedSteals++
		}
	}
	return false
}

// stole records that w's steal got n items, and measures w's last ranges
// unless measured (see steal).
func (r *stealRun) stole(me *stealWorker, n int, measured bool) {
	me.stolen = true
	if !measured {
		r.measure(me)
	}
	if r.adaptive {
		me.batch = 1 // items from elsewhere in the loop, of unknown cost
	} else if r.sized {
		me.grain = r.part(n)
		me.batch = me.grain
	}
	me.counts.Steals++
	r.steals.Add(1)
	r.events.Add(1) // after steals (see Quiet)
}

// lateStart is how long, in ns, a worker runs before it steals from blocks
// whose workers have not started (see stealLate).
const lateStart = 200_000

// stealLate is steal from the blocks of workers that have not called Next,
// for a worker w that has found nothing else to steal and has run for over
// lateStart, from its first reading of the clock to its last. It tries each
// such worker once, in order, and reports whether it got a chunk; once it
// finds every worker started, w looks no more in this run.
//
// A block is left to its worker until it calls Next (see Start), so that a
// driver that runs the slot of a helper that has not come takes it as its
// owner: but a thread that the operating system has taken off its core for
// milliseconds, a helper's or the caller's before its first Next, would
// hold its whole block as long, and a helper that comes after the caller
// took its slot over finds none to run and leaves the caller alone. A
// caller that steals from the late block instead does not run out of work
// and leaves the slot to its helper, which finds what is left of the block
// when it comes. lateStart is far longer than a helper takes to start on a
// machine that gives each thread a core, and shorter than the slice of a
// thread's time that a busy machine takes away.
func (r *stealRun) stealLate(w int, measured bool) bool {
	me := &r.ws[w]
	if me.allOn || !me.timed || me.last-me.first <= lateStart {
		return false
	}
	all := true
	for v := range r.ws {
		if v == w || r.ws[v].begun.Load() {
			continue
		}
		all = false
		if lo, hi, ok := me.own.StealFrom(&r.ws[v].own); ok {
			r.stole(me, hi-lo, measured)
			return true
		}
		me.counts.FailedSteals++
	}
	me.allOn = all
	return false
}

// others reports whether a worker other than w is listed: one load per 64
// workers, where steal's search draws a victim and passes over every word.
// Every worker's last Next of a loop, and each poll of an idle one, finds
// nobody listed; Next calls steal only where others finds somebody.
func (r *stealRun) others(w int) bool {
	for k := range r.listed {
		word := r.listed[k].Load()
		if k == w/64 {
			word &^= uint64(1) << (w % 64)
		}
		if word != 0 {
			return true
		}
	}
	return false
}

// next draws the worker's next pseudo-random number (xorshift64).
func (me *stealWorker) next() uint64 {
	x := me.rng
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	me.rng = x
	return x
}
