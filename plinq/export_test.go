package plinq

// ShrinkSizes sets every block, batch and window size of the package to a
// few elements, so that small inputs cross all their boundaries, and returns
// a function that restores them. Tests that call it must not run in
// parallel with others.
func ShrinkSizes() (restore func()) {
	saved := []int{batchLen, firstWindow, streamWindow, radixBlock, radixSmall, mergeLeaf, mergePiece, insertionRun, groupBlock, denseSpan, parallelMerge, mergeParts}
	batchLen, firstWindow, streamWindow = 3, 8, 32
	radixBlock, radixSmall = 16, 40
	mergeLeaf, mergePiece, insertionRun = 16, 8, 3
	groupBlock = 30
	denseSpan, parallelMerge, mergeParts = 8, 0, 4
	return func() {
		batchLen, firstWindow, streamWindow = saved[0], saved[1], saved[2]
		radixBlock, radixSmall = saved[3], saved[4]
		mergeLeaf, mergePiece, insertionRun, groupBlock = saved[5], saved[6], saved[7], saved[8]
		denseSpan, parallelMerge, mergeParts = saved[9], saved[10], saved[11]
	}
}
