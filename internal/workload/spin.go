package workload

// Spin returns x after iters steps of x = x*0.9999999 + 1e-6; for iters <= 0 it returns x.
//
// Spin is the unit of compute of the workloads: a chain of dependent floating-point
// operations that the compiler can neither vectorise (each step needs the previous one)
// nor drop (Spin is not inlined, and its result is part of every checksum).
//
// The product is rounded before the addition (see "Floating-point rounding" in the
// package documentation), so Spin returns the same value on every architecture, and a step
// is a multiply followed by a dependent addition, a few nanoseconds; BenchmarkSpin reports
// it in ns/iter. Spin is safe to call from any goroutine.
//
//go:noinline
func Spin(x float64, iters int32) float64 {
	for ; iters > 0; iters-- {
		x = float64(x*0.9999999) + 1e-6
	}
	return x
}
