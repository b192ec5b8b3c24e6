package workload

// saxpy: y[i] = 2.5*x[i] + y[i], with x[i] = float64(i%1000) * 0.001 and y reset to 1. At the
// default n = 16,777,216 the two slices take 256 MiB, far more than any cache, so the loop
// is bound by memory bandwidth at a fraction of a Spin iteration per item: it measures the
// scheduling overhead of a parallel loop and how its partitioning keeps streams contiguous.

// saxpyCost is saxpy's model cost per item in Spin iterations: streaming an item's 24 bytes
// takes about a third of an iteration, as saxpy's sequential time per item over
// BenchmarkSpin's ns/iter shows.
const saxpyCost = 0.3

// saxpyInstance is saxpy's Instance. x is read-only after New; Chunk updates y in place.
type saxpyInstance struct {
	x, y []float64
}

// newSaxpy returns the saxpy instance with n items, y already reset to 1.
func newSaxpy(n int) Instance {
	in := &saxpyInstance{x: make([]float64, n), y: make([]float64, n)}
	for i := range in.x {
		in.x[i] = float64(i%1000) * 0.001
	}
	in.Reset()
	return in
}

// Len returns the number of items.
func (in *saxpyInstance) Len() int { return len(in.y) }

// Reset sets every y[i] to 1.
func (in *saxpyInstance) Reset() {
	for i := range in.y {
		in.y[i] = 1
	}
}

// Chunk sets y[i] = 2.5*x[i] + y[i] for i in [lo, hi), in order. The product is rounded
// before the addition, on every architecture (see the package documentation).
func (in *saxpyInstance) Chunk(lo, hi int) {
	checkRange("Chunk", lo, hi, len(in.y))
	x, y := in.x[lo:hi], in.y[lo:hi]
	x = x[:len(y)] // lets the compiler drop the bounds check on x[k]
	for k := range y {
		y[k] = float64(2.5*x[k]) + y[k]
	}
}

// Item sets y[i] = 2.5*x[i] + y[i].
func (in *saxpyInstance) Item(i int) {
	checkIndex("Item", i, len(in.y))
	in.y[i] = float64(2.5*in.x[i]) + in.y[i]
}

// Checksum returns the FNV-1a digest of y.
func (in *saxpyInstance) Checksum() uint64 { return checksumFloats(in.y) }

// Cost returns saxpyCost for every item.
func (in *saxpyInstance) Cost(i int) float64 {
	checkIndex("Cost", i, len(in.y))
	return saxpyCost
}
