package plinq

// SetCounting sets the keys past which a CountBy worker partitions its
// counts and the keys a partition buffers, and returns a function that
// restores them. Tests that call it must not run in parallel with others.
func SetCounting(after, buf int) (restore func()) {
	a, b := partitionAfter, partBuf
	partitionAfter, partBuf = after, buf
	return func() { partitionAfter, partBuf = a, b }
}
