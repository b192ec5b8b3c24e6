package workload

import "fmt"

// Workload is one benchmark workload over the index space [0, N).
//
// The zero Workload is not usable: obtain workloads from [All], [More] or [ByName].
type Workload struct {
	// Name is the workload's name in benchmarks/WORKLOADS.md, e.g. "tailheavy"; benchmarks
	// use it in sub-benchmark names such as "workload=tailheavy".
	Name string

	// N is the default number of items n, from benchmarks/WORKLOADS.md.
	N int

	// Calls is the number of back-to-back parallel calls over [0, n) that make up one
	// timed repetition: 2000 for "tiny" (reported as time per call), 1 otherwise.
	Calls int

	// build builds the instance with n items; n > 0.
	build func(n int) Instance
}

// Instance is a workload's data at a given size, ready to run.
//
// Concurrency: Chunk and Item may be called concurrently from several goroutines as long as
// the ranges they process are disjoint; Len and Cost may be called at any time from any
// goroutine. Reset and Checksum must not run concurrently with anything else on the same
// Instance; the runner's join (for example sync.WaitGroup.Wait) synchronizes the workers'
// writes before Checksum.
//
// Order: the items of a Chunk are processed in increasing index order, but the result does not
// depend on the order of items or chunks: each item reads only its own inputs and writes only
// its own output slots.
//
// Chunk and Item panic, with a message prefixed "workload:", if the range is not within
// [0, Len()). They do not allocate.
type Instance interface {
	// Len returns the number of items n.
	Len() int

	// Reset restores the inputs and outputs to their state right after New, so that the
	// next timed repetition starts from the same data. It is meant to be untimed.
	Reset()

	// Chunk processes the items [lo, hi) in order: the body for each i. An empty range
	// (lo == hi) does nothing.
	Chunk(lo, hi int)

	// Item processes item i; it has the same effect as Chunk(i, i+1).
	Item(i int)

	// Checksum returns a bit-exact digest of the outputs: 64-bit FNV-1a over the 8
	// little-endian bytes of each output word (math.Float64bits of a float64 output, the
	// value of an integer output), in index order (for query, the totals of its result). It
	// equals the checksum of a sequential run
	// that processed every item the same number of times since the last Reset.
	Checksum() uint64

	// Cost returns the model cost of item i, in Spin iterations, for a
	// scaling simulator: the iteration count for the Spin workloads, an estimate for saxpy,
	// the row's escape iterations for mandelbrot, estimates for spmv, matmul and query.
	// Cost is independent of Reset and of whether item i has run. It panics if i is not
	// within [0, Len()). The first call may take as long as a sequential run (mandelbrot
	// computes its rows then); later calls are a lookup.
	Cost(i int) float64
}

// New builds the workload's inputs and outputs for n items, deterministically: two
// Instances built with the same n hold the same data and give the same checksums.
// n <= 0 means w.N. The outputs start in the state Reset restores.
//
// New panics if w is not one of the workloads of [All] or [More].
func (w Workload) New(n int) Instance {
	if w.build == nil {
		panic(fmt.Sprintf("workload: New(%d) on Workload %q that did not come from All, More or ByName", n, w.Name))
	}
	if n <= 0 {
		n = w.N
	}
	return w.build(n)
}

// All returns the seven workloads of benchmarks/WORKLOADS.md in the order saxpy, uniform,
// triangular, tailheavy, randomskew, mandelbrot, tiny. Each call returns a new slice, which the caller
// may modify.
func All() []Workload {
	return []Workload{
		{Name: "saxpy", N: 16_777_216, Calls: 1, build: newSaxpy},
		{Name: "uniform", N: 1_000_000, Calls: 1, build: newUniform},
		{Name: "triangular", N: 20_000, Calls: 1, build: newTriangular},
		{Name: "tailheavy", N: 100_000, Calls: 1, build: newTailheavy},
		{Name: "randomskew", N: 100_000, Calls: 1, build: newRandomskew},
		{Name: "mandelbrot", N: 2_000, Calls: 1, build: newMandelbrot},
		{Name: "tiny", N: 1_000, Calls: 2_000, build: newTiny},
	}
}

// More returns the three workloads that benchmarks/WORKLOADS.md adds to the seven, in the
// order spmv, matmul, query: a sparse and a dense kernel from textbooks, and a filter/map/group
// query over a table (the workload of plinq). Each call returns a new slice.
func More() []Workload {
	return []Workload{
		{Name: "spmv", N: 200_000, Calls: 1, build: newSpmv},
		{Name: "matmul", N: 512, Calls: 1, build: newMatmul},
		{Name: "query", N: 4_096, Calls: 1, build: newQuery},
	}
}

// ByName returns the workload of [All] or [More] with the given name, and reports whether
// there is one.
func ByName(name string) (Workload, bool) {
	for _, w := range append(All(), More()...) {
		if w.Name == name {
			return w, true
		}
	}
	return Workload{}, false
}

// checkRange panics unless 0 <= lo <= hi <= n; Chunk and Item of every Instance call it
// first, so that a runner's off-by-one fails with a message naming the package.
func checkRange(method string, lo, hi, n int) {
	if lo < 0 || hi < lo || hi > n {
		rangePanic(method, lo, hi, n)
	}
}

// rangePanic is kept out of line so that checkRange stays small enough to inline.
//
//go:noinline
func rangePanic(method string, lo, hi, n int) {
	panic(fmt.Sprintf("workload: %s(%d, %d) with n = %d: range not within [0, n)", method, lo, hi, n))
}

// checkIndex panics unless 0 <= i < n.
func checkIndex(method string, i, n int) {
	if uint(i) >= uint(n) {
		indexPanic(method, i, n)
	}
}

// indexPanic is kept out of line so that checkIndex stays small enough to inline.
//
//go:noinline
func indexPanic(method string, i, n int) {
	panic(fmt.Sprintf("workload: %s(%d) with n = %d: index not within [0, n)", method, i, n))
}
