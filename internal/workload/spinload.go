package workload

// This file holds the workloads whose body is out[i] = Spin(float64(i), iters[i]): uniform,
// triangular and tailheavy here, randomskew in randomskew.go. Each builds its iteration
// counts once, in New, into a table; the table load is cheap against at least
// 58 Spin iterations per item, and lets one loop serve all four workloads.

// Iteration counts of benchmarks/WORKLOADS.md.
const (
	uniformIters   = 96    // uniform: every item
	triangularTop  = 1280  // triangular: iters = i*1280/n, so 0 to 1279
	tailLightIters = 58    // tailheavy: a light item
	tailHeavyIters = 32000 // tailheavy: a heavy item, the last n/50 items
)

// spinInstance is the Instance of a workload whose body is out[i] = Spin(float64(i), iters[i]).
type spinInstance struct {
	iters []int32   // iteration count of each item; read-only after New
	out   []float64 // output slot of each item; zero after Reset
}

// newSpinInstance returns the instance with n items whose iteration counts are iters(i, n).
func newSpinInstance(n int, iters func(i, n int) int32) *spinInstance {
	in := &spinInstance{iters: make([]int32, n), out: make([]float64, n)}
	for i := range in.iters {
		in.iters[i] = iters(i, n)
	}
	return in
}

func newUniform(n int) Instance    { return newSpinInstance(n, uniformItersAt) }
func newTriangular(n int) Instance { return newSpinInstance(n, triangularItersAt) }
func newTailheavy(n int) Instance  { return newSpinInstance(n, tailheavyItersAt) }

// uniformItersAt returns uniform's iteration count: 96 for every item.
func uniformItersAt(i, n int) int32 { return uniformIters }

// triangularItersAt returns triangular's iteration count i*1280/n, rounded down. The product
// is formed in int64 so that it cannot overflow where int has 32 bits (i*1280 would overflow
// int32 for i > 1,677,721); the quotient is below 1280 because i < n.
func triangularItersAt(i, n int) int32 {
	return int32(int64(i) * triangularTop / int64(n))
}

// tailheavyItersAt returns tailheavy's iteration count: 32000 for the last n/50 items
// (i >= n - n/50, rounded down, so none when n < 50), 58 for the others.
func tailheavyItersAt(i, n int) int32 {
	if i >= n-n/50 {
		return tailHeavyIters
	}
	return tailLightIters
}

// Len returns the number of items.
func (in *spinInstance) Len() int { return len(in.out) }

// Reset zeroes the outputs.
func (in *spinInstance) Reset() { clear(in.out) }

// Chunk sets out[i] = Spin(float64(i), iters[i]) for i in [lo, hi), in order.
func (in *spinInstance) Chunk(lo, hi int) {
	checkRange("Chunk", lo, hi, len(in.out))
	out, iters := in.out[lo:hi], in.iters[lo:hi]
	iters = iters[:len(out)] // lets the compiler drop the bounds check on iters[k]
	for k := range out {
		out[k] = Spin(float64(lo+k), iters[k])
	}
}

// Item sets out[i] = Spin(float64(i), iters[i]).
func (in *spinInstance) Item(i int) {
	checkIndex("Item", i, len(in.out))
	in.out[i] = Spin(float64(i), in.iters[i])
}

// Checksum returns the FNV-1a digest of the outputs.
func (in *spinInstance) Checksum() uint64 { return checksumFloats(in.out) }

// Cost returns the iteration count of item i.
func (in *spinInstance) Cost(i int) float64 {
	checkIndex("Cost", i, len(in.out))
	return float64(in.iters[i])
}
