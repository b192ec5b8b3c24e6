package workload

// tiny: out[i] += Spin(float64(i), 20) over n = 1,000 items, so a whole parallel call does
// only 20,000 Spin iterations of work, split among its workers. One timed repetition
// is Calls = 2,000 back-to-back parallel calls, reported as time per call: it measures the
// start-up and wake-up latency of a parallel call. The body accumulates, so the checksum
// also shows that every call processed every item exactly once.

// tinyIters is tiny's iteration count per item.
const tinyIters = 20

// tinyInstance is tiny's Instance.
type tinyInstance struct {
	out []float64 // running sum of each item; zero after Reset
}

// newTiny returns the tiny instance with n items.
func newTiny(n int) Instance { return &tinyInstance{out: make([]float64, n)} }

// Len returns the number of items.
func (in *tinyInstance) Len() int { return len(in.out) }

// Reset zeroes the outputs.
func (in *tinyInstance) Reset() { clear(in.out) }

// Chunk adds Spin(float64(i), 20) to out[i] for i in [lo, hi), in order.
func (in *tinyInstance) Chunk(lo, hi int) {
	checkRange("Chunk", lo, hi, len(in.out))
	out := in.out[lo:hi]
	for k := range out {
		out[k] += Spin(float64(lo+k), tinyIters)
	}
}

// Item adds Spin(float64(i), 20) to out[i].
func (in *tinyInstance) Item(i int) {
	checkIndex("Item", i, len(in.out))
	in.out[i] += Spin(float64(i), tinyIters)
}

// Checksum returns the FNV-1a digest of the outputs.
func (in *tinyInstance) Checksum() uint64 { return checksumFloats(in.out) }

// Cost returns 20 for every item.
func (in *tinyInstance) Cost(i int) float64 {
	checkIndex("Cost", i, len(in.out))
	return tinyIters
}
