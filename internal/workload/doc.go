// Package workload defines the benchmark workloads of benchmarks/WORKLOADS.md, so that
// stealkit's testing.B benchmarks and the benchmark runner measure exactly the same bodies as
// the figures quoted there for other libraries.
//
// A [Workload] names a body over the index space [0, n) and its default size. [Workload.New]
// builds an [Instance]: the inputs and outputs at one size, built deterministically. A runner
// calls [Instance.Reset] (untimed), then has its parallel loop call [Instance.Chunk] or
// [Instance.Item] over [0, n), [Workload.Calls] times, and finally compares
// [Instance.Checksum] with the one of a sequential run: the checksums are equal bit for bit
// whenever every item was processed the same number of times, in whatever order and on
// whatever goroutines.
//
// The workloads, in the order [All] returns them:
//
//	saxpy       n = 16,777,216  y[i] = 2.5*x[i] + y[i]; memory-bound
//	uniform     n = 1,000,000   out[i] = Spin(i, 96); even work
//	triangular  n = 20,000      out[i] = Spin(i, i*1280/n); cost grows along the range
//	tailheavy   n = 100,000     Spin(i, 58), but Spin(i, 32000) in the last 2%
//	randomskew  n = 100,000     Spin(i, c[i]), c Pareto(4/3) with scale 170 (splitmix64, seed 42)
//	mandelbrot  n = 2,000       out[r] = total escape iterations of row r of an n x n image
//	tiny        n = 1,000       out[i] += Spin(i, 20), 2,000 back-to-back calls per repetition
//
// and the three that [More] adds, with the same conventions:
//
//	spmv        n = 200,000     y = A·x, A sparse with power-law row lengths (splitmix64, seed 42)
//	matmul      n = 512         row i of C = A·B for dense n x n matrices
//	query       n = 4,096       block i of 1,024 generated orders: filter, map, group by region
//
// # Floating-point rounding
//
// Go lets a compiler fuse x*y + z into one fused multiply-add (gc does on arm64, ppc64, s390x
// and on amd64 with GOAMD64=v3), which would change both the results and the cost of a body
// from one build to the next. Every multiply-add in this package is therefore written with an explicit
// float64 conversion, float64(x*y) + z, which the Go specification says forces the product
// to be rounded. Each body is thus evaluated exactly as written, one rounding per operation,
// and a checksum is the same on every architecture (amd64, 386 with SSE2, arm64, ...).
package workload
