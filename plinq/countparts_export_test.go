package plinq

// SetCounting sets the keys past which a CountBy worker partitions its
// counts, the number of partitions and the keys a partition buffers, and
// returns a function that restores them. Tests that call it must not run
// in parallel with others.
func SetCounting(after, parts, buf int) (restore func()) {
	a, p, b := partitionAfter, countParts, partBuf
	partitionAfter, countParts, partBuf = after, parts, buf
	return func() { partitionAfter, countParts, partBuf = a, p, b }
}
