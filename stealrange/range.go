package stealrange

import (
	"fmt"
	"math"
	"sync/atomic"
)

// The design of Range, for maintainers; the tests in this directory check
// it (see README.md).
//
// # Protocol
//
// The indices are laid out as [low .. [mid .. end)): the owner's part is
// [low, mid) and the steal range is [mid, end), an immutable span replaced
// only by a compare-and-swap of a fresh span, so a stale thief can never win
// a CAS on a reused span (no ABA). The owner reserves a batch by publishing a
// new low and only then reads the steal range; a thief reads the steal range,
// then low, and CAS-replaces the span with the top quarter of [low, mid).
// Because Go's atomics are sequentially consistent, an owner's batch and a
// steal can meet only on the one span the owner read after reserving, and
// then the owner's own CAS decides: if it loses, the thief took exactly
// [mid, end) of that span and the owner keeps [low, mid). Reset and GiveBack
// close the range (low = MaxUint64), set the new span, and reopen it, in that
// order. Indices are mapped to uint64 positions so that the whole int domain
// works without overflow on 32- and 64-bit platforms.
//
// # State
//
// Two words are shared, both in position space: an index i is the uint64
// position uint64(int64(i)) ^ 1<<63, which keeps the order of ints, so that
// the whole int domain works without overflow:
//
//	low   atomic.Uint64         next position the owner will reserve; written only by the owner
//	steal atomic.Pointer[span]  the steal range [mid, end); replaced only by CAS of a fresh span
//
// In a zero Range both are zero: low is the position of MinInt, limit too,
// and steal is nil, which every operation reads as an empty span, one that
// no thief can win (a thief backs off from an empty span before its CAS).
// So the zero Range is the empty range [MinInt, MinInt), as New(MinInt,
// MinInt) makes it, except that the first Reset or Reuse installs its first
// span; a nil steal is never installed again.
//
// A span is fresh if its address has not been installed in any Range in
// this epoch of the Range whose owner handed it out (see Allocation): no
// goroutine can hold it from an earlier install, so a CAS that compares
// against it compares against the one state it stands for.
//
// The owner's items are [low, mid), the stealable items [mid, end), and items
// at or above end are gone. end is owned in the sense that it only decreases
// while one range is owned (thieves install spans ending at the old mid; the
// owner's own CASes keep end), and only Reset raises it. The owner keeps a
// private copy, limit >= steal.end, so that it never publishes a low above
// the range's end and can report an exhausted range without atomics.
//
// # Invariants
//
//  1. Disjointness: an index is handed out by at most one operation.
//  2. No loss: while items remain, they are in [low, end) of the current span,
//     or reserved by an owner take still in progress.
//  3. Every position handed out by a steal lies at or above the end of the
//     current span.
//  4. A span installed after the owner published low = e is only ever paired
//     with a low >= e by a thief (both loads and stores are sequentially
//     consistent in Go, and a thief loads steal before low). So the only way a
//     thief can take an index the owner has reserved is to win a CAS on the
//     very span the owner read after reserving, which yields [mid, end) of
//     that span exactly; the owner learns of it from its own failed CAS.
//  5. The owner keeps the steal range proportionate: once its distance to the
//     steal range is under twice the range's size it shrinks the range to the
//     top quarter of what remains. This is balance, not correctness: in this
//     protocol an owner that reaches mid takes its batch with one CAS and
//     carves a new steal range from the rest, so nothing is dropped.
//
// # Operations and their linearization points
//
// TryTake(k) (TryTakeOne is TryTake(1)): reserve [l, e) by storing low = e,
// then load steal:
//   - e <= mid: the batch lies below the steal range; the take linearizes at
//     that load. (A shrink CAS may follow; losing it is fine.)
//   - l >= end: nothing is left; the take reports exhaustion, linearized at
//     that load.
//   - otherwise the batch reaches into the steal range: CAS the span read to
//     carve(min(e, end), end). A win linearizes the take of [l, min(e, end))
//     at the CAS. A loss means a thief won exactly [mid, end) of that span
//     (invariant 4), so the owner keeps [l, mid), linearized at the thief's
//     CAS, or reports exhaustion if l >= mid.
//
// Why a batch cannot overlap a steal: every index in [l, e) is either below
// the mid of the span the owner read (and a thief that takes above that mid
// cannot reach below it: spans installed later are paired with low >= e), or
// is claimed by the owner's own CAS on that span, which fails exactly when a
// thief claimed [mid, end) of it first, and then the owner returns only the
// part below mid.
//
// Stealable makes TrySteal's two loads and writes nothing: it reports what
// a TrySteal whose loads read the same values would try to take. Its two
// loads are not one snapshot, so it has no linearization point as a count:
// it is a hint. A nonzero answer may be stale at once, and 0 may be
// transient (a Reset or GiveBack between close and open, an owner's take at
// the steal range before its CAS), so a caller that acts on a 0 must look
// again after a change it is told of.
//
// TrySteal: load steal, then load low; if the span is empty (or nil) or
// low > mid the attempt fails (the owner has reached the steal range; it
// will take the rest with its CAS). Otherwise CAS the span to carve(low, mid); a win takes
// [mid, end) of the old span and linearizes at the CAS; a loss is a failed
// attempt, linearized at the CAS.
//
// r.StealFrom(v) is v.TrySteal followed, if it took a chunk, by r.Reset of
// it: two operations, each linearized as above. Only where the new span
// comes from differs (r's blocks rather than an allocation), and a span
// whose CAS failed was never seen by another goroutine, so handing it out
// again keeps every installed span fresh.
//
// Reset(a, b) runs three writes: low = MaxUint64 (close: every thief now
// sees low > mid and backs off), steal = carve(a, b) (set), low = a (open). It
// linearizes at the last store. GiveBack(f) runs the same three steps with a
// CAS loop as the set step, so that a steal by a thief that read low before
// the close is not overwritten. Either two-write order is wrong: storing low
// first lets a thief that holds the old span steal from the new range,
// storing steal first lets a thief pair the new span with the old low.
//
// # Allocation
//
// Owner takes that stay below the steal range allocate nothing. Every change
// of the steal range installs a fresh 16-byte span: a shrink, a steal, an
// owner CAS at the steal range, a Reset. Each of those cuts what is left to
// at most three quarters or hands it out, so a range of n items sees
// O(log n) of them over its life. TrySteal allocates the span it installs;
// every other install, StealFrom's included, takes the next unused span of
// the installing owner's Range, which allocates blocks of 2, 4, 8, then 16
// spans. A span is used once per epoch, the time from New or Reuse to the
// next Reuse of the Range that handed it out: that is what keeps addresses
// unique. A span whose CAS failed was never
// published and is handed out again. Reuse starts a new epoch at the first
// block, so that a Range reused for run after run stops allocating once its
// blocks hold what one run installs.

// Range is a work-stealing range of integer indices: one owner consumes it
// from the low end while any number of thieves steal contiguous chunks from
// the high end, without locks.
//
// # Callers
//
// TryTakeOne, TryTake, Reset, StealFrom, Reuse, GiveBack and Remaining are
// executed only by the owner, one goroutine at a time (ownership may pass
// between goroutines if the hand-over synchronizes, as a channel send or a
// WaitGroup does). TrySteal and Stealable can be executed by any goroutine,
// concurrently with everything; so can r.StealFrom(v) as far as v is
// concerned: to v it is a thief. Reuse is for Ranges no longer in use (see
// Reuse).
//
// # Allocation
//
// Owner takes that stay below the steal range allocate nothing. A range of
// n items installs O(log n) 16-byte spans over its life: TrySteal allocates
// the span it installs, every other install takes a span from blocks the
// installing owner's Range allocates, and a Range reused for run after run
// (see Reuse) stops allocating once its blocks hold what one run installs.
//
// The zero Range is an empty range, ready for use: the owner's takes report
// it exhausted, steals find nothing, and Reset or Reuse gives it indices. A
// Range must not be copied after first use.
type Range struct {
	low   atomic.Uint64        // next position the owner reserves; written only by the owner
	steal atomic.Pointer[span] // current steal range; replaced only by CAS of a fresh span, or by Reset
	limit uint64               // owner only: >= steal.Load().end, and every published low <= limit

	// Owner only: indices TryTakeOne has reserved ahead, [next, ahead), and
	// the mid of the steal range as the owner last saw it.
	next, ahead, seenMid uint64

	// Owner only: the spans for the owner's installs (see ownerCarve), in
	// blocks; cur is blocks[blk] (nil until the first block is allocated),
	// and cur[slot] is the next one not used in this epoch.
	blocks    [][]span
	cur       []span
	blk, slot int

	// Owner only: the batch the last successful take returned, [lastLo,
	// lastHi), which GiveBack may hand back a suffix of.
	lastLo, lastHi uint64

	// Ranges are usually allocated side by side, one per worker, and the
	// owner writes low on every take: the fields above fill a cache line
	// pair on 64-bit platforms, which keeps neighbours off it (measured:
	// BenchmarkTryTakeParallelOwners; TestRangeSize checks the size).
}

// maxBlock is how many spans a block holds at most. The first block holds 2,
// and each next one twice as many as the one before, so that the many
// short-lived ranges of short parallel calls allocate little.
const maxBlock = 16

// ownerCarve returns carve(l, e) as a span for the owner to install: the
// next one of r's blocks not used in this epoch, allocating a block if none
// is left. Until Reuse ends the epoch, each span is handed out once (or
// again after unSpan, if it was never published), so every install has an
// address that no goroutine has compared against in this epoch, and the
// garbage collector keeps the blocks alive while any pointer into them is
// held. Identity, and with it the absence of ABA, is as with one allocation
// per span.
func (r *Range) ownerCarve(l, e uint64) *span {
	if r.slot == len(r.cur) {
		r.nextBlock()
	}
	s := &r.cur[r.slot]
	r.slot++
	s.mid, s.end = carveMid(l, e), e // published by the CAS or Store that installs s
	return s
}

// nextBlock makes the block after cur current (the first block, if r has
// none yet), allocating it if r has none left.
func (r *Range) nextBlock() {
	if r.cur != nil {
		r.blk++
	}
	if r.blk == len(r.blocks) {
		n := 2
		if r.blk > 0 {
			n = min(2*len(r.blocks[r.blk-1]), maxBlock)
		}
		r.blocks = append(r.blocks, make([]span, n))
	}
	r.cur, r.slot = r.blocks[r.blk], 0
}

// unSpan hands the span ownerCarve returned last back to r's blocks. The
// caller has not published it: its CAS failed.
func (r *Range) unSpan() { r.slot-- }

// Reserving ahead. A take costs one sequentially consistent store (a full
// fence, several times the rest of TryTakeOne), which would dominate it. So
// when the owner is far from the steal range (more than 16 times the batch), a
// TryTakeOne reserves up to maxAhead indices with one take and hands them out
// one by one from the owner's private [next, ahead). Reserved indices can no
// longer be stolen, which is why the batch is small and shrinks to 1 near the
// steal range. The protocol itself only ever sees take.
const maxAhead = 8

// New returns a Range owning the indices [lo, hi). An empty range (lo == hi)
// is valid and yields nothing. New panics if hi < lo, with a message naming
// both.
func New(lo, hi int) *Range {
	if hi < lo {
		panic(fmt.Sprintf("stealrange: New(%d, %d): hi < lo", lo, hi))
	}
	r := new(Range)
	r.init(toPos(lo), toPos(hi))
	return r
}

// init makes r own [pl, ph) where no goroutine but the caller uses r (New,
// Reuse): Reset's writes without its close, which only a thief that may run
// concurrently needs.
func (r *Range) init(pl, ph uint64) {
	r.steal.Store(r.ownerCarve(pl, ph))
	r.low.Store(pl)
	r.owns(pl, ph)
}

// owns sets the owner's own fields for a range [pl, ph) it has just set.
func (r *Range) owns(pl, ph uint64) {
	r.limit = ph
	r.next, r.ahead, r.seenMid = 0, 0, carveMid(pl, ph)
	r.lastLo, r.lastHi = 0, 0
}

// TryTakeOne takes the next index of the range. It is executed only by the
// owner. ok == false means the range is exhausted: every index has been taken
// by the owner or stolen, and the owner should go stealing. Far from the
// steal range it reserves up to 8 indices at a time, so most calls use no
// atomic operation; the reserved indices can no longer be stolen.
func (r *Range) TryTakeOne() (i int, ok bool) {
	if r.next < r.ahead {
		i := r.next
		r.next++
		r.lastLo, r.lastHi = i, i+1
		return fromPos(i), true
	}
	k := uint64(1)
	if d := r.seenMid - min(r.seenMid, r.low.Load()); d >= 16*maxAhead {
		k = maxAhead
	}
	lo, hi, ok := r.take(k)
	if !ok {
		return 0, false
	}
	if hi != lo+1 {
		r.next, r.ahead = toPos(lo)+1, toPos(hi)
	}
	r.lastLo, r.lastHi = toPos(lo), toPos(lo)+1
	return lo, true
}

// TryTake takes up to max contiguous indices [lo, hi) from the low end with a
// single reservation, so a loop does not pay an atomic operation per index.
// It is executed only by the owner. The batch may be shorter than max when it
// reaches the range's end or the steal range. ok == false means the range is
// exhausted. TryTake panics if max < 1, with a message naming max.
func (r *Range) TryTake(max int) (lo, hi int, ok bool) {
	if max < 1 {
		panic(fmt.Sprintf("stealrange: TryTake(%d): max must be at least 1", max))
	}
	if r.next < r.ahead { // hand out what TryTakeOne reserved first
		lo := r.next
		r.next += min(uint64(max), r.ahead-r.next)
		r.lastLo, r.lastHi = lo, r.next
		return fromPos(lo), fromPos(r.next), true
	}
	lo, hi, ok = r.take(uint64(max))
	if ok {
		r.lastLo, r.lastHi = toPos(lo), toPos(hi)
	}
	return lo, hi, ok
}

// take implements TryTake for k >= 1.
func (r *Range) take(k uint64) (lo, hi int, ok bool) {
	l := r.low.Load() // only the owner writes low: this reads its own last store
	if l >= r.limit {
		return 0, 0, false
	}
	e := l + min(k, r.limit-l)
	r.step(stepReserve)
	r.low.Store(e) // publish the reservation of [l, e)
	r.step(stepTakeLoad)
	s := r.steal.Load()
	r.seenMid = s.mid
	if e <= s.mid {
		// Linearized at the load: [l, e) is below the current steal range.
		if d, z := s.mid-e, s.end-s.mid; d/2 < z {
			// Close to the steal range: shrink it to the top quarter of
			// what is left, so that thieves take a proportionate share.
			if carveMid(e, s.end) != s.mid {
				r.step(stepShrink)
				if !r.steal.CompareAndSwap(s, r.ownerCarve(e, s.end)) { // losing to a thief is fine
					r.unSpan()
				}
			}
		}
		return fromPos(l), fromPos(e), true
	}
	if l >= s.end {
		r.limit = s.end // everything at or above l has been stolen
		return 0, 0, false
	}
	c := min(e, s.end)
	r.step(stepTakeCAS)
	if r.steal.CompareAndSwap(s, r.ownerCarve(c, s.end)) {
		return fromPos(l), fromPos(c), true // claimed [l, c) against every thief
	}
	r.unSpan()
	// A thief won this very span and with it exactly [s.mid, s.end).
	r.limit = s.mid
	if l < s.mid {
		return fromPos(l), fromPos(s.mid), true
	}
	return 0, 0, false
}

// TrySteal takes a contiguous chunk [lo, hi) from the high end of the range:
// the steal range, about a quarter of what is left. It can be executed by any
// goroutine, concurrently with the owner and other thieves. ok == false means
// this attempt found nothing stealable or lost a race to another goroutine;
// the range may still hold items for its owner. It allocates the 16-byte
// span it installs; StealFrom does not.
func (r *Range) TrySteal() (lo, hi int, ok bool) { return r.steal1(nil) }

// StealFrom takes a chunk [lo, hi) from v as v.TrySteal does and, if it got
// one, makes r's owner own it as r.Reset(lo, hi) does. It is executed only
// by r's owner, after a take from r reported it exhausted (indices still in
// r are dropped), concurrently with everything done to v. The span it
// installs in v comes from r's blocks, so that a Reuse of r reuses it: the
// price is Reuse's condition on the Ranges r stole from.
// StealFrom panics if v is r or nil.
func (r *Range) StealFrom(v *Range) (lo, hi int, ok bool) {
	if v == nil {
		panic("stealrange: StealFrom(nil)")
	}
	if v == r {
		panic("stealrange: StealFrom: a Range cannot steal from itself")
	}
	if lo, hi, ok = v.steal1(r); ok {
		r.Reset(lo, hi)
	}
	return lo, hi, ok
}

// steal1 implements TrySteal, with a span allocated for the CAS if thief is
// nil, else taken from thief's blocks.
func (r *Range) steal1(thief *Range) (lo, hi int, ok bool) {
	r.step(stepStealLoad)
	s := r.steal.Load()
	r.step(stepStealLow)
	l := r.low.Load()
	if s == nil || s.mid == s.end || l > s.mid {
		return 0, 0, false // nothing stealable (nil: a zero Range), or the owner has reached the steal range
	}
	var n *span
	if thief == nil {
		n = carve(l, s.mid)
	} else {
		n = thief.ownerCarve(l, s.mid)
	}
	r.step(stepStealCAS)
	if !r.steal.CompareAndSwap(s, n) {
		if thief != nil {
			thief.unSpan()
		}
		return 0, 0, false // the owner or another thief changed the steal range first
	}
	return fromPos(s.mid), fromPos(s.end), true // the CAS commits the steal of [mid, end)
}

// Stealable returns how many indices a TrySteal would try to take now: the
// size of the steal range, or 0 if it is empty or the owner has reached it
// (also while Reset or GiveBack, which close the range, or an owner's take
// that reaches into the steal range is in progress). It may be executed by
// any goroutine and writes nothing. The range may change at once, so the
// result is a hint: a thief can use it to choose a victim or to note that
// one has nothing to steal. O(1): two atomic loads.
func (r *Range) Stealable() int {
	s := r.steal.Load()
	l := r.low.Load()
	if s == nil || s.mid == s.end || l > s.mid {
		return 0
	}
	return int(min(s.end-s.mid, math.MaxInt))
}

// Reset makes the owner own [lo, hi) instead, typically a chunk it has just
// stolen from another Range, so that others can steal from it in turn. It is
// executed only by the owner, after TryTake or TryTakeOne reported the range
// exhausted: indices still in the range when Reset is called are dropped.
// Reset panics if hi < lo, with a message naming both.
func (r *Range) Reset(lo, hi int) {
	if hi < lo {
		panic(fmt.Sprintf("stealrange: Reset(%d, %d): hi < lo", lo, hi))
	}
	pl, ph := toPos(lo), toPos(hi)
	r.step(stepResetClose)
	r.low.Store(math.MaxUint64) // close: every thief now sees low > mid
	r.step(stepResetSet)
	r.steal.Store(r.ownerCarve(pl, ph)) // set: stale spans can no longer win a CAS
	r.step(stepResetOpen)
	r.low.Store(pl) // open: linearization point of Reset
	r.owns(pl, ph)
}

// Reuse makes r own [lo, hi) as New(lo, hi) would, reusing the spans r has
// installed since it was made or last reused (see Allocation). A zero Range
// may be reused too. Reuse panics if hi < lo, with a message naming both.
//
// Reuse is for Ranges that go out of use together, as the Ranges of one
// parallel loop do once its workers have returned: every call on r, and on
// every Range r stole from with StealFrom since r was made or last reused,
// must have returned and synchronize before Reuse (as a WaitGroup's Wait
// does), and none of those Ranges may be used again before its own Reuse.
// They may hold spans of r that Reuse hands out again: a goroutine that
// still held one could see it change, or win a CAS on it that stands for an
// older state, and an index would be handed out twice.
func (r *Range) Reuse(lo, hi int) {
	if hi < lo {
		panic(fmt.Sprintf("stealrange: Reuse(%d, %d): hi < lo", lo, hi))
	}
	// A new epoch: no goroutine holds a span of the last one. cur is nil
	// (r has no blocks) or blocks[blk].
	if r.blk > 0 {
		r.cur, r.blk = r.blocks[0], 0
	}
	r.slot = 0
	r.init(toPos(lo), toPos(hi))
}

// GiveBack hands back the indices [from, hi) of the batch [lo, hi) that the
// owner's last TryTake or TryTakeOne returned, none of which the owner has
// processed, so that they can be taken or stolen again: the owner's next
// take starts at from, and the steal range is carved anew from what is left.
// It is executed only by the owner, typically when other workers are idle
// while it holds a batch that turned out to be expensive. Indices the last
// TryTakeOne reserved ahead are handed back too. GiveBack panics if from is
// not within [lo, hi].
func (r *Range) GiveBack(from int) {
	// It runs Reset's three writes with a CAS in the middle: low = MaxUint64
	// (close: every thief now backs off), CAS the current span s to
	// carve(from, s.end), retrying if a thief that read low before the close
	// wins s first (set), low = from (open; the linearization point). Every
	// index in [from, s.end) is then either the owner's or stealable, and no
	// index below from is: the owner processed those.
	//
	// The CAS is what exactly-once needs: setting the span with a Store can
	// overwrite a concurrent steal and hand an index out twice. The close is for
	// balance: without it a thief can carve a span from a stale low and leave an
	// empty steal range above indices the owner still has, and a thief could
	// make the set step fail more than once (the model check in model_test.go
	// shows both, and that neither loses nor doubles an index).
	p := toPos(from)
	if p < r.lastLo || p > r.lastHi || r.lastHi == r.lastLo {
		if r.lastHi == r.lastLo {
			panic(fmt.Sprintf("stealrange: GiveBack(%d): no batch taken to give back", from))
		}
		panic(fmt.Sprintf("stealrange: GiveBack(%d): not within the last batch taken [%d, %d)",
			from, fromPos(r.lastLo), fromPos(r.lastHi)))
	}
	r.step(stepGiveClose)
	r.low.Store(math.MaxUint64) // close: every thief now sees low > mid
	for {
		r.step(stepGiveLoad)
		s := r.steal.Load()
		r.step(stepGiveCAS)
		if r.steal.CompareAndSwap(s, r.ownerCarve(p, s.end)) { // set: s.end >= lastHi >= from
			r.seenMid = carveMid(p, s.end)
			break
		}
		r.unSpan()
	}
	r.step(stepGiveOpen)
	r.low.Store(p) // open: linearization point of GiveBack
	r.next, r.ahead = 0, 0
	r.lastLo, r.lastHi = 0, 0
}

// Remaining returns how many indices the range holds above the owner's last
// take: those the owner has yet to take, and the steal range, which thieves
// may take first. It is executed only by the owner. O(1): two atomic loads.
func (r *Range) Remaining() int {
	l := r.low.Load() // only the owner writes low: this reads its own last store
	s := r.steal.Load()
	if s == nil || l >= s.end {
		return 0 // nil: a zero Range
	}
	return int(min(s.end-l, math.MaxInt))
}
