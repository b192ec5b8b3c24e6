package pfor

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

// Call runs the body over [lo, hi) as worker slot: a sched.Body.
func (b *loopBody) Call(slot, lo, hi int) error {
	switch {
	case b.each != nil:
		each := b.each // a local: the loop need not load it from b per index
		for i := lo; i < hi; i++ {
			each(i)
		}
	case b.chunk != nil:
		b.chunk(lo, hi)
	case b.eachErr != nil:
		each := b.eachErr
		for i := lo; i < hi; i++ {
			if err := each(i); err != nil {
				return err
			}
		}
	case b.chunkErr != nil:
		return b.chunkErr(lo, hi)
	default:
		return b.slotted(slot, lo, hi)
	}
	return nil
}
