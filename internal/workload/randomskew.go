package workload

import "math"

// randomskew: out[i] = Spin(float64(i), c[i]), where c[i] is Pareto distributed with shape
// alpha = 4/3 and scale 170, drawn by inversion from the i-th output of splitmix64 seeded 42:
//
//	z = splitmix64 output i        (the first output is the one after the first increment)
//	u = float64((z>>11)+1) / 2^53  (u in (0, 1], never 0: (z>>11)+1 is in [1, 2^53])
//	s = sqrt(u)
//	c = int32(170 / (s*sqrt(s)))   (s*sqrt(s) = u^(3/4) = u^(1/alpha))
//
// c is never below 170 (u = 1) and has mean alpha/(alpha-1) * 170 = 680 iterations; the
// conversion to int32 rounds toward zero. For the default n = 100,000 the mean is 650.8 (the
// sample misses part of the tail) and the largest cost is c = 1,155,815, about 1,700 times
// the mean on its own.
//
// Overflow guard: at u = 2^-53 the quotient is 170 * 2^39.75, about 1.6e14, far beyond int32,
// and Go leaves an out-of-range float-to-int conversion implementation-dependent. So a
// quotient of 2^31 or more is saturated to math.MaxInt32 (2^31 - 1 iterations).
// That happens only when (z>>11)+1 <= 3,061,600, i.e. u below 3.4e-10, with probability
// 3.4e-10 per item; it never happens for the default n = 100,000 with seed 42
// (TestRandomskewDefaultCosts checks the largest cost). No other cap is applied: the heavy
// tail is the point.

// Parameters of randomskew in benchmarks/WORKLOADS.md.
const (
	randomskewSeed  = 42
	randomskewScale = 170
)

// newRandomskew returns the randomskew instance with n items: c[0..n) are the first n costs
// of the stream, so a smaller instance is a prefix of a larger one.
func newRandomskew(n int) Instance {
	in := &spinInstance{iters: make([]int32, n), out: make([]float64, n)}
	state := uint64(randomskewSeed)
	for i := range in.iters {
		var z uint64
		state, z = splitmix64(state)
		in.iters[i] = paretoIters(z)
	}
	return in
}

// paretoIters maps one splitmix64 output z to randomskew's iteration count.
func paretoIters(z uint64) int32 {
	u := float64((z>>11)+1) / (1 << 53)
	s := math.Sqrt(u)
	c := randomskewScale / (s * math.Sqrt(s))
	if c >= 1<<31 {
		return math.MaxInt32
	}
	return int32(c)
}

// splitmix64 advances the splitmix64 generator (Steele, Lea and Flood, 2014) from state and
// returns the new state and the output for it.
func splitmix64(state uint64) (next, z uint64) {
	next = state + 0x9e3779b97f4a7c15
	z = next
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return next, z ^ (z >> 31)
}
