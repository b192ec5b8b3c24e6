package workload_test

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
)

// The tests in this file recompute each workload from the formulas of
// benchmarks/WORKLOADS.md, written out again here, and compare with the package.

// refSpin is Spin written out again: iters steps of x = x*0.9999999 + 1e-6, product rounded.
func refSpin(x float64, iters int32) float64 {
	for k := int32(0); k < iters; k++ {
		x = float64(x*0.9999999) + 1e-6
	}
	return x
}

// refSplitMix64 is splitmix64 written out again, as a stream.
type refSplitMix64 struct{ state uint64 }

func (g *refSplitMix64) next() uint64 {
	g.state += 0x9e3779b97f4a7c15
	z := g.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// refRandomskewIters returns the first n randomskew costs.
func refRandomskewIters(n int) []int32 {
	g := refSplitMix64{state: 42}
	c := make([]int32, n)
	for i := range c {
		u := float64((g.next()>>11)+1) / math.Exp2(53)
		s := math.Sqrt(u)
		c[i] = int32(170 / (s * math.Sqrt(s)))
	}
	return c
}

// refMandelbrotRow returns the escape iterations of row r of the n x n image.
func refMandelbrotRow(r, n int) int64 {
	ci := -1.25 + 3*float64(r)/float64(n)
	var total int64
	for c := 0; c < n; c++ {
		cr := -2 + 3*float64(c)/float64(n)
		x, y := 0.0, 0.0
		k := 0
		for k < 500 && float64(x*x)+float64(y*y) <= 4 {
			x, y = float64(x*x)-float64(y*y)+cr, float64(2*x*y)+ci
			k++
		}
		total += int64(k)
	}
	return total
}

// refChecksum is FNV-1a over the 8 little-endian bytes of each word, through hash/fnv.
func refChecksum(words []uint64) uint64 {
	h := fnv.New64a()
	var b []byte
	for _, w := range words {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	h.Write(b)
	return h.Sum64()
}

// refSpinOutputs returns the words of out[i] = Spin(i, iters(i)) for i in [0, n).
func refSpinOutputs(n int, iters func(i int) int32) []uint64 {
	words := make([]uint64, n)
	for i := range words {
		words[i] = math.Float64bits(refSpin(float64(i), iters(i)))
	}
	return words
}

// refOutputs returns the output words of one sequential pass of each workload over [0, n).
func refOutputs(name string, n int) []uint64 {
	switch name {
	case "saxpy":
		words := make([]uint64, n)
		for i := range words {
			x := float64(i%1000) * 0.001
			words[i] = math.Float64bits(float64(2.5*x) + 1)
		}
		return words
	case "uniform":
		return refSpinOutputs(n, func(int) int32 { return 96 })
	case "triangular":
		return refSpinOutputs(n, func(i int) int32 { return int32(i * 1280 / n) })
	case "tailheavy":
		return refSpinOutputs(n, func(i int) int32 {
			if i >= n-n/50 {
				return 32000
			}
			return 58
		})
	case "randomskew":
		c := refRandomskewIters(n)
		return refSpinOutputs(n, func(i int) int32 { return c[i] })
	case "mandelbrot":
		words := make([]uint64, n)
		for r := range words {
			words[r] = uint64(refMandelbrotRow(r, n))
		}
		return words
	case "tiny":
		return refSpinOutputs(n, func(int) int32 { return 20 })
	}
	panic("refOutputs: unknown workload " + name)
}

func TestChecksumMatchesReference(t *testing.T) {
	for _, w := range workload.All() {
		n := testSizes[w.Name]
		inst := w.New(n)
		inst.Chunk(0, n)
		if got, want := inst.Checksum(), refChecksum(refOutputs(w.Name, n)); got != want {
			t.Errorf("%s: New(%d) then Chunk(0, %d): Checksum() = %#x; want %#x from the formula", w.Name, n, n, got, want)
		}
	}
}

func TestSpin(t *testing.T) {
	for _, tc := range []struct {
		x     float64
		iters int32
		want  float64
	}{
		{0, 1, 1e-6},
		{2, 0, 2},
		{2, -5, 2},
		{1, 1, float64(1*0.9999999) + 1e-6},
		{0.5, 1000, refSpin(0.5, 1000)},
		{123, 96, refSpin(123, 96)},
	} {
		if got := workload.Spin(tc.x, tc.iters); got != tc.want {
			t.Errorf("Spin(%v, %d) = %v; want %v", tc.x, tc.iters, got, tc.want)
		}
	}
}

func TestTriangularItersDoNotOverflow(t *testing.T) {
	for _, tc := range []struct {
		i, n int
		want int32
	}{
		{0, 20_000, 0},
		{19_999, 20_000, 1279},
		{10_000, 20_000, 640},
		{1_677_722, 2_000_000, 1073}, // i*1280 > MaxInt32
		{1_999_999_999, 2_000_000_000, 1279},
	} {
		if got := workload.TriangularItersAt(tc.i, tc.n); got != tc.want {
			t.Errorf("triangular iters at i = %d, n = %d: got %d; want %d", tc.i, tc.n, got, tc.want)
		}
	}
}

func TestTailheavyBoundary(t *testing.T) {
	w, _ := workload.ByName("tailheavy")
	for _, tc := range []struct {
		n, firstHeavy int
	}{
		{0, 98_000}, // the default n = 100,000: the last 2,000 items
		{1_000, 980},
		{1_049, 1_029}, // n/50 rounds down
		{50, 49},
		{49, 49}, // n/50 = 0: no heavy item
	} {
		inst := w.New(tc.n)
		for i := range inst.Len() {
			want := 58.0
			if i >= tc.firstHeavy {
				want = 32000
			}
			if got := inst.Cost(i); got != want {
				t.Errorf("tailheavy New(%d).Cost(%d) = %v; want %v", tc.n, i, got, want)
				break
			}
		}
	}
}
