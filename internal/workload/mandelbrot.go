package workload

import "sync"

// mandelbrot: item r is row r of an n x n image of the window [-2, 1] x [-1.25, 1.75] of the
// complex plane, and out[r] is the total number of escape iterations of the row's n pixels.
// Pixel (r, c) is the point
//
//	cr = -2 + 3c/n,  ci = -1.25 + 3r/n   (computed as -2 + (3*float64(c))/float64(n), ...)
//
// The window is off-centre in the imaginary direction (the set spans about ±1.12), so the
// first half of the rows carries most of the work: a 2-way static split is uneven (about
// 74% / 26%; TestMandelbrotStaticSplit checks it).
//
// Escape convention (mandelbrotPixel): z starts at 0; before each step, if |z|^2 > 4 the
// pixel has escaped and stops; otherwise z = z^2 + c and the count goes up by one, up to
// mandelbrotMaxIter steps. So a pixel with |c|^2 > 4 counts 1, c = 1 counts 3 (0, 1, 2 pass
// the test; 5 fails it), and a point that never leaves |z|^2 <= 4, such as c = 0 or c = -2,
// counts 500.

// mandelbrotMaxIter is the iteration limit per pixel.
const mandelbrotMaxIter = 500

// mandelbrotIterCost is the model cost of one escape iteration in Spin iterations. The critical
// path of a step is a multiply and two additions (zr*zr, - zi2, + cr), against a multiply
// and one addition for a Spin step; BenchmarkMandelbrotPixel and BenchmarkSpin measure the
// ratio.
const mandelbrotIterCost = 1.4

// mandelbrotInstance is mandelbrot's Instance.
type mandelbrotInstance struct {
	out []int64 // escape iterations of each row; zero after Reset

	costOnce sync.Once
	cost     []float64 // model cost of each row, computed on the first call of Cost
}

// newMandelbrot returns the mandelbrot instance with n rows (of n pixels each). It is cheap:
// the rows' costs are computed only if Cost is called.
func newMandelbrot(n int) Instance { return &mandelbrotInstance{out: make([]int64, n)} }

// Len returns the number of rows.
func (in *mandelbrotInstance) Len() int { return len(in.out) }

// Reset zeroes the outputs.
func (in *mandelbrotInstance) Reset() { clear(in.out) }

// Chunk sets out[r] to the total escape iterations of row r for r in [lo, hi), in order.
func (in *mandelbrotInstance) Chunk(lo, hi int) {
	checkRange("Chunk", lo, hi, len(in.out))
	out := in.out[lo:hi]
	for k := range out {
		out[k] = mandelbrotRow(lo+k, len(in.out))
	}
}

// Item sets out[r] to the total escape iterations of row r.
func (in *mandelbrotInstance) Item(r int) {
	checkIndex("Item", r, len(in.out))
	in.out[r] = mandelbrotRow(r, len(in.out))
}

// Checksum returns the FNV-1a digest of the outputs.
func (in *mandelbrotInstance) Checksum() uint64 { return checksumInts(in.out) }

// Cost returns the escape iterations of row r times mandelbrotIterCost. The first call
// computes every row, as long as one sequential run; later calls only look the value up.
func (in *mandelbrotInstance) Cost(r int) float64 {
	checkIndex("Cost", r, len(in.out))
	in.costOnce.Do(func() {
		n := len(in.out)
		in.cost = make([]float64, n)
		for r := range in.cost {
			in.cost[r] = float64(mandelbrotRow(r, n)) * mandelbrotIterCost
		}
	})
	return in.cost[r]
}

// mandelbrotRow returns the total escape iterations of the n pixels of row r.
func mandelbrotRow(r, n int) int64 {
	ci := -1.25 + 3*float64(r)/float64(n)
	var total int64
	for c := range n {
		cr := -2 + 3*float64(c)/float64(n)
		total += int64(mandelbrotPixel(cr, ci))
	}
	return total
}

// mandelbrotPixel returns the escape iterations of the point c = cr + ci·i (see the escape
// convention above). Every product is rounded before it is added (see the package
// documentation), so the count is the same on every architecture.
func mandelbrotPixel(cr, ci float64) int {
	var zr, zi float64
	k := 0
	for ; k < mandelbrotMaxIter; k++ {
		zr2, zi2 := float64(zr*zr), float64(zi*zi)
		if zr2+zi2 > 4 {
			break
		}
		zi = float64(2*zr*zi) + ci
		zr = zr2 - zi2 + cr
	}
	return k
}
