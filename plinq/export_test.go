package plinq

// ShrinkSizes sets every block, batch and window size of the package to a
// few elements, so that small inputs cross all their boundaries, and returns
// a function that restores them. Tests that call it must not run in
// parallel with others.
func ShrinkSizes() (restore func()) {
	saved := []int{batchLen, firstWindow, streamWindow, radixBlock, radixSmall, mergeLeaf, mergePiece, insertionRun, groupBlock, denseSpan, parallelMerge, mergeParts, partLen}
	batchLen, firstWindow, streamWindow = 3, 8, 32
	radixBlock, radixSmall = 16, 40
	mergeLeaf, mergePiece, insertionRun = 16, 8, 3
	groupBlock, partLen = 30, 5
	denseSpan, parallelMerge, mergeParts = 8, 0, 4
	return func() {
		batchLen, firstWindow, streamWindow = saved[0], saved[1], saved[2]
		radixBlock, radixSmall = saved[3], saved[4]
		mergeLeaf, mergePiece, insertionRun, groupBlock = saved[5], saved[6], saved[7], saved[8]
		denseSpan, parallelMerge, mergeParts = saved[9], saved[10], saved[11]
		partLen = saved[12]
	}
}

// A Dense is a denseIndex, for tests of its window.
type Dense struct{ d denseIndex }

// NewDense returns an empty denseIndex that numbers keys.
func NewDense() *Dense { return &Dense{startDense(true)} }

func (d *Dense) Set(u uint64, i int32) bool { return d.d.set(u, i) }
func (d *Dense) Find(u uint64) int32        { return d.d.find(u) }
func (d *Dense) On() bool                   { return d.d.on }
func (d *Dense) Slots() int                 { return len(d.d.slots) }

// SetGrouping sets the most slots of a denseIndex and the local keys past
// which a key index merges in parallel, and returns a function that
// restores them. Tests that call it must not run in parallel with others.
func SetGrouping(span, merge int) (restore func()) {
	s, m := denseSpan, parallelMerge
	denseSpan, parallelMerge = span, merge
	return func() { denseSpan, parallelMerge = s, m }
}

// OnStopAll makes every early exit that stops all of a loop's chunks (Any,
// Every, Contains, FindAny) call f, on the goroutine that stopped them,
// once no chunk can start a batch, until restore is called. Tests that call
// it must not run in parallel with others.
func OnStopAll(f func()) (restore func()) {
	onStopAll = f
	return func() { onStopAll = nil }
}

// BatchLen returns the most elements a stage hands on at a time.
func BatchLen() int { return batchLen }
