package pfor

import "github.com/stealkit/stealkit/internal/sched"

// A loopBody is the user's function of one call, in the form the entry
// point took it: exactly one field is set. Keeping the user's function as it
// is, instead of wrapping it in a closure of the common form, saves a call
// an allocation.
type loopBody struct {
	each     func(i int)                  // Range
	chunk    func(lo, hi int)             // Chunks
	eachErr  func(i int) error            // RangeErr
	chunkErr func(lo, hi int) error       // ChunksErr
	slotted  func(slot, lo, hi int) error // every other entry point
}

// Call runs the body over [lo, hi) as worker slot. It calls the typed
// bodies' methods directly, not through sched's interface value, which
// would make a caller's loopBody escape to the heap: one allocation a call.
func (b *loopBody) Call(slot, lo, hi int) error {
	switch {
	case b.each != nil:
		return (*eachBody)(b).Call(slot, lo, hi)
	case b.chunk != nil:
		return (*chunkBody)(b).Call(slot, lo, hi)
	case b.eachErr != nil:
		return (*eachErrBody)(b).Call(slot, lo, hi)
	case b.chunkErr != nil:
		return (*chunkErrBody)(b).Call(slot, lo, hi)
	}
	return (*slottedBody)(b).Call(slot, lo, hi)
}

// sched returns b as the sched.Body of its one function set: a pointer to b
// under a type whose Call calls that function, with no look at the others,
// for the job's slots to call once per range or piece.
func (b *loopBody) sched() sched.Body {
	switch {
	case b.each != nil:
		return (*eachBody)(b)
	case b.chunk != nil:
		return (*chunkBody)(b)
	case b.eachErr != nil:
		return (*eachErrBody)(b)
	case b.chunkErr != nil:
		return (*chunkErrBody)(b)
	}
	return (*slottedBody)(b)
}

// The loopBody of each entry point, as a sched.Body.
type (
	eachBody     loopBody
	chunkBody    loopBody
	eachErrBody  loopBody
	chunkErrBody loopBody
	slottedBody  loopBody
)

func (b *eachBody) Call(_, lo, hi int) error {
	each := b.each // a local: the loop need not load it from b per index
	for i := lo; i < hi; i++ {
		each(i)
	}
	return nil
}

func (b *chunkBody) Call(_, lo, hi int) error {
	b.chunk(lo, hi)
	return nil
}

func (b *eachErrBody) Call(_, lo, hi int) error {
	each := b.eachErr
	for i := lo; i < hi; i++ {
		if err := each(i); err != nil {
			return err
		}
	}
	return nil
}

func (b *chunkErrBody) Call(_, lo, hi int) error { return b.chunkErr(lo, hi) }

func (b *slottedBody) Call(slot, lo, hi int) error { return b.slotted(slot, lo, hi) }
