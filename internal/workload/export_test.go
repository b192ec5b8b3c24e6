package workload

// Internals exposed to the tests of package workload_test.
var (
	SplitMix64        = splitmix64
	ParetoIters       = paretoIters
	MandelbrotPixel   = mandelbrotPixel
	TriangularItersAt = triangularItersAt
)

// Constants exposed to the tests.
const (
	MandelbrotMaxIter  = mandelbrotMaxIter
	MandelbrotIterCost = mandelbrotIterCost
)
