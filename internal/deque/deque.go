// Package deque provides the work-stealing deque of stealkit's task
// scheduler: Chase and Lev's growable circular deque ("Dynamic Circular
// Work-Stealing Deque", SPAA 2005), the lock-free design of Arora, Blumofe
// and Plaxton's deque without its fixed capacity.
package deque

import "sync/atomic"

// Deque is a lock-free work-stealing deque of pointers: one owner pushes and
// pops at the bottom, last in first out, while any number of thieves take
// from the top, first in first out.
//
// # Callers
//
// Push and Pop are executed only by the owner, one goroutine at a time
// (ownership may pass between goroutines if the hand-over synchronizes, as a
// mutex or a channel send does). Steal, Len and Cap can be executed by any
// goroutine, concurrently with everything.
//
// # State
//
// Elements live at positions, int64 counters that only ever grow:
//
//	top    atomic.Int64         next position a thief takes; advanced only by CAS (thieves, and the owner racing for the last element)
//	bottom atomic.Int64         next position the owner pushes to; written only by the owner
//	array  atomic.Pointer[ring] the current ring; replaced only by the owner, when it grows
//
// The deque holds the positions [top, bottom); position p lives in slot
// p mod len of the current ring. The owner keeps private copies of bottom
// and of the ring (it is their only writer), so its operations read neither
// word back. Positions are compared only by difference (bottom-top), so the
// protocol would survive a wrap-around of the counters; at one operation per
// nanosecond a wrap takes 292 years, and the tests start the counters near
// it anyway.
//
// # Invariants
//
//  1. top <= bottom+1, and top == bottom+1 only while a Pop that found the
//     deque empty has not yet restored bottom.
//  2. Each position in [top, bottom) holds the element pushed there, in the
//     current ring and in every ring installed after the push.
//  3. A position is handed out by at most one operation: by a thief's
//     successful CAS of top from p to p+1, or by the owner's Pop, which takes
//     p without a CAS only when it saw top < p after publishing bottom = p.
//  4. top never decreases, so a CAS of top from t succeeds only if no other
//     operation took position t in between: no ABA (below).
//
// # Memory model
//
// Go's atomic operations are sequentially consistent: they all appear in one
// total order, and each is synchronized before every atomic operation that
// observes its effect. Every argument below is about that order.
//
// # Operations and their linearization points
//
// Push(x): store x in slot b of the ring (growing it first if full), then
// store bottom = b+1. Linearizes at the bottom store: a thief that loads
// bottom > b afterwards is synchronized after both stores, so it sees x.
//
// Pop: store bottom = b-1 (reserving position b-1), then load top = t.
//   - t < b-1: at least one more element lies above the reserved one. Every
//     thief that could still take b-1 must have loaded bottom before the
//     store, hence top before it, hence a value <= t < b-1: its CAS on top
//     can only take a position below b-1. Linearizes at the store.
//   - t == b-1: the last element. Thieves and owner race with a CAS of top
//     from t to t+1; the winner has it. Pop linearizes at its CAS (success, or
//     failure: the deque became empty at the thief's CAS), then restores
//     bottom = t+1, leaving the deque empty with top == bottom.
//   - t > b-1: the deque was empty; restore bottom = b. Linearizes at the
//     load of top.
//
// Steal: load top = t, then bottom = b; if b-t <= 0 the deque is empty,
// linearized at the load of bottom. Otherwise load the ring, read slot t and
// CAS top from t to t+1: success takes the element and linearizes at the
// CAS; failure means the owner or another thief took position t first, and
// Steal reports nothing, linearized at the failing CAS.
//
// Why Steal reads the right element: a thief that saw bottom > t is
// synchronized after the push of position t, hence after the ring store
// that push used, so the ring it loads next is that ring or a later one; a
// later ring was filled by copying [top', bottom') with top' <= t, so it
// holds position t too (invariant 2). The owner overwrites slot t mod len
// only for a position p > t, which it pushes only when p-top < len, that is
// once top > t, and then the thief's CAS fails.
//
// # ABA and the garbage collector
//
// top is never reused: a CAS from t can only succeed while top is still t,
// and top passes each value once. Rings are never reused either: the owner
// allocates a new one to grow and drops the old one, and the garbage
// collector keeps a dropped ring alive, unchanged, for as long as a stale
// thief holds a pointer to it. So a thief holding an old ring reads memory
// that is still valid, and whatever it read there is only returned if its
// CAS on top succeeds, which (above) implies the slot held position t. A
// manually managed deque must defer freeing old rings (hazard pointers,
// epochs); here that is the collector's job. Elements may be reused by the
// caller once taken: no operation compares element pointers.
//
// # Costs
//
// Push is two atomic stores (an XCHG each on amd64) when the ring has room;
// Pop one atomic store and two loads, plus a CAS and a store for the last
// element; Steal three loads and a CAS; BenchmarkDeque measures them.
// Nothing allocates except growth: the ring doubles when full and never
// shrinks. Slots are not cleared when their element is taken (a thief cannot: the
// owner may be reusing the slot), so a Deque keeps up to Cap stale pointers
// alive until they are overwritten.
//
// A Deque must not be copied after first use.
type Deque[T any] struct {
	top atomic.Int64 // next position to steal; CAS only

	// The owner writes bottom on every Push and Pop while thieves CAS top:
	// keep them on separate cache lines. The struct is two lines long, so
	// that Deques allocated side by side, one per worker, share none either:
	// an owner reads its top on every Push and Pop, and another owner's
	// bottom next to it would cost a cache miss each time. (Measured with
	// the padding of pfor's per-worker objects: without both, fib on two
	// workers used about twice the CPU of fib on one.)
	_      [cacheLine - 8]byte
	bottom atomic.Int64            // next position to push; owner only
	b      int64                   // owner only: the value of bottom
	array  atomic.Pointer[ring[T]] // current ring; replaced by the owner only
	r      *ring[T]                // owner only: the value of array
	_      [cacheLine - 16 - 2*ptrSize]byte
}

const (
	cacheLine = 64
	ptrSize   = 4 << (^uintptr(0) >> 63) // 8 on 64-bit platforms, 4 on 32-bit ones
)

// MinCap is the capacity of a new Deque.
const MinCap = 32

// ring is a circular array of slots whose length is a power of two.
type ring[T any] struct {
	mask  int64
	slots []atomic.Pointer[T]
}

func newRing[T any](n int64) *ring[T] {
	return &ring[T]{mask: n - 1, slots: make([]atomic.Pointer[T], n)}
}

func (r *ring[T]) slot(p int64) *atomic.Pointer[T] { return &r.slots[p&r.mask] }

// New returns an empty Deque with room for MinCap elements before it grows.
func New[T any]() *Deque[T] { return newAt[T](MinCap, 0) }

// newAt returns an empty Deque of capacity n (a power of two) whose
// counters start at position p.
func newAt[T any](n int, p int64) *Deque[T] {
	d := new(Deque[T])
	d.r = newRing[T](int64(n))
	d.array.Store(d.r)
	d.top.Store(p)
	d.bottom.Store(p)
	d.b = p
	return d
}

// Push adds x at the bottom. It is executed only by the owner. It panics if
// x is nil, as nil is how Pop and Steal report that they took nothing.
func (d *Deque[T]) Push(x *T) {
	if x == nil {
		panic("deque: Push(nil)")
	}
	b, r := d.b, d.r
	step(stepPushTop)
	if t := d.top.Load(); b-t > r.mask { // full: b-t == len
		r = d.grow(t, b)
	}
	step(stepPushSlot)
	r.slot(b).Store(x)
	step(stepPushBottom)
	d.bottom.Store(b + 1) // publishes x: linearization point of Push
	d.b = b + 1
}

// grow installs a ring twice as large holding positions [t, b).
func (d *Deque[T]) grow(t, b int64) *ring[T] {
	r := newRing[T](2 * (d.r.mask + 1))
	for p := t; p != b; p++ {
		r.slot(p).Store(d.r.slot(p).Load())
	}
	step(stepPushGrow)
	d.array.Store(r) // before the bottom store that publishes the new element
	d.r = r
	return r
}

// Pop removes and returns the element at the bottom, the one pushed last,
// or nil if the deque is empty or a thief took its last element. It is
// executed only by the owner.
func (d *Deque[T]) Pop() *T {
	b := d.b - 1
	step(stepPopBottom)
	d.bottom.Store(b) // reserve position b against thieves that load bottom from now on
	step(stepPopTop)
	t := d.top.Load()
	switch n := b - t; {
	case n < 0: // was empty
		step(stepPopRestore)
		d.bottom.Store(b + 1)
		return nil
	case n > 0: // b is not the last element: no thief can take it (see the type's doc)
		d.b = b
		return d.r.slot(b).Load()
	}
	x := d.r.slot(b).Load()
	step(stepPopCAS)
	won := d.top.CompareAndSwap(t, t+1) // race thieves for the last element
	step(stepPopRestore)
	d.bottom.Store(b + 1) // empty: top == bottom == t+1
	d.b = b + 1
	if !won {
		return nil
	}
	return x
}

// Steal removes and returns the element at the top, the oldest one, or nil
// if the deque is empty or another goroutine took that element first (then
// the deque may still hold others). It can be executed by any goroutine.
func (d *Deque[T]) Steal() *T {
	step(stepStealTop)
	t := d.top.Load()
	step(stepStealBottom)
	if b := d.bottom.Load(); b-t <= 0 {
		return nil
	}
	step(stepStealArray)
	r := d.array.Load()
	step(stepStealSlot)
	x := r.slot(t).Load() // may be stale: then the CAS below fails
	step(stepStealCAS)
	if !d.top.CompareAndSwap(t, t+1) { // commits the steal of position t
		return nil
	}
	return x
}

// Len returns the number of elements: exact when no other operation runs,
// otherwise a value that was correct at some instant during the call or
// that counts elements taken during it. It can be executed by any goroutine.
func (d *Deque[T]) Len() int {
	t := d.top.Load()
	return int(max(d.bottom.Load()-t, 0))
}

// Cap returns the number of elements the deque holds before it grows. It
// can be executed by any goroutine.
func (d *Deque[T]) Cap() int { return len(d.array.Load().slots) }
