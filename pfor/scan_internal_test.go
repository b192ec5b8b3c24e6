package pfor

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/partition"
)

// refScan is the sequential scan: what Scan and ScanExclusive mean.
func refScan[T any](in []T, identity T, op func(T, T) T, inclusive bool) []T {
	out := make([]T, len(in))
	acc := identity
	for i, x := range in {
		if !inclusive {
			out[i] = acc
		}
		acc = op(acc, x)
		if inclusive {
			out[i] = acc
		}
	}
	return out
}

// shrinkScan makes the scan plan parallel from a few elements on, with
// blocks of a few elements, and returns a function that restores it.
func shrinkScan() func() {
	s, b, m := scanSequential, scanBlocks, scanMinBlock
	scanSequential, scanBlocks, scanMinBlock = 6, 4, 2
	return func() { scanSequential, scanBlocks, scanMinBlock = s, b, m }
}

func scanConfigs() [][]Option {
	var out [][]Option
	for _, w := range []int{1, 2, 3, 8} {
		for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(1), partition.Stealing(), partition.Auto()} {
			out = append(out, []Option{WithWorkers(w), WithPartitioner(p)})
		}
	}
	return out
}

// TestScanMatchesSequential: Scan and ScanExclusive of string
// concatenation (associative, not commutative, exact) equal the sequential
// loop's result, element by element, for lengths around every boundary of
// the plan, with the real sizes and shrunk ones, under every worker count
// and partitioner.
func TestScanMatchesSequential(t *testing.T) {
	for _, shrunk := range []bool{false, true} {
		t.Run(fmt.Sprintf("shrunk=%v", shrunk), func(t *testing.T) {
			lengths := []int{0, 1, 2, 3, 1023, 1<<15 - 1, 1 << 15, 100_003}
			if shrunk {
				defer shrinkScan()()
				lengths = []int{0, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 31, 39, 40, 41, 64, 79, 80, 81, 100, 121, 257}
			}
			for _, n := range lengths {
				checkScan(t, n)
			}
		})
	}
}

func checkScan(t *testing.T, n int) {
	t.Helper()
	in := make([]string, n)
	for i := range in {
		in[i] = strconv.Itoa(i%10) + ","
	}
	concat := func(a, b string) string { return a + b }
	if n > 10_000 { // keep the strings short: the 16 bytes before the end still show order
		concat = func(a, b string) string { c := a + b; return c[len(c)-min(len(c), 16):] } // still associative
	}
	for _, inclusive := range []bool{true, false} {
		want := refScan(in, "", concat, inclusive)
		scan := Scan[string]
		if !inclusive {
			scan = ScanExclusive[string]
		}
		for _, opts := range scanConfigs() {
			got := scan(in, "", concat, opts...)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("n=%d inclusive=%v with %d workers: out[%d] = %q; want %q", n, inclusive, configure("Scan", opts).workers, i, got[i], want[i])
			}
		}
	}
}

func firstDiff[T comparable](got, want []T) int {
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return i
		}
	}
	return -1
}

// An affine is the map x -> a*x + b on uint64, wrapping. Composing two
// (then) is associative, not commutative and exact: a prefix of affines
// shows any element combined out of order, twice or not at all.
type affine struct{ a, b uint64 }

func then(f, g affine) affine { return affine{g.a * f.a, g.a*f.b + g.b} }

// TestScanLongMatchesSequential: Scan and ScanExclusive of affines equal
// the sequential loop's result, element by element, with the real plan's
// sizes, from the shortest parallel scan to a long one, under workers 1 to
// 3 and two partitioners.
func TestScanLongMatchesSequential(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	in := make([]affine, 300_007)
	for i := range in {
		in[i] = affine{r.Uint64() | 1, r.Uint64()}
	}
	id := affine{1, 0}
	var configs [][]Option
	for _, w := range []int{1, 2, 3} {
		for _, p := range []partition.Partitioner{partition.Static(), partition.Auto()} {
			configs = append(configs, []Option{WithWorkers(w), WithPartitioner(p)})
		}
	}
	for _, n := range []int{scanSequential, scanSequential + 1, scanSequential + 2, len(in)} {
		for _, inclusive := range []bool{true, false} {
			want := refScan(in[:n], id, then, inclusive)
			scan := Scan[affine]
			if !inclusive {
				scan = ScanExclusive[affine]
			}
			for _, opts := range configs {
				if i := firstDiff(scan(in[:n], id, then, opts...), want); i >= 0 {
					t.Fatalf("n=%d inclusive=%v with %d workers: out[%d] differs from the sequential scan's", n, inclusive, configure("Scan", opts).workers, i)
				}
			}
		}
	}
}

// blockedScan is the scan plan of passes run on one goroutine, in order:
// the same calls of op on the same values, so the same bits, whatever op.
func blockedScan[T any](in []T, identity T, op func(T, T) T, inclusive bool) []T {
	n := len(in)
	out := make([]T, n)
	s := &scanner[T]{out: out, in: in, op: op, inclusive: inclusive}
	if !inclusive && n > 0 {
		out[0] = identity
	}
	if !scanParts(n) {
		s.scan(0, n, identity)
		return out
	}
	first, last := n/3, n-n/3
	block := max(scanMinBlock, (last-first)/scanBlocks)
	acc := s.scan(0, first, identity)
	for lo := first; lo < last; lo += block {
		hi := min(lo+block, last)
		f := s.fold(lo, hi, identity)
		s.scan(lo, hi, acc)
		acc = op(acc, f)
	}
	s.scan(last, n, acc)
	return out
}

// tilt is a float combine that is neither associative nor commutative,
// with 0 as a left identity: any change in which values are combined, or
// in what grouping or order, shows in the bits.
func tilt(a, b float64) float64 { return a*(1+0x1p-20) + b }

// TestScanDeterministic: Scan and ScanExclusive of a combine that is
// neither associative nor commutative equal, bit for bit, the plan run
// sequentially (blockedScan), at every worker count, with every
// partitioner, under GOMAXPROCS 1 to 4 (so with more workers than cores),
// with the real sizes and shrunk ones; and the exclusive scan is the
// inclusive one shifted by one, bit for bit.
func TestScanDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	long := make([]float64, 200_001)
	for i := range long {
		long[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(12)))
	}
	for _, shrunk := range []bool{false, true} {
		in := long
		if shrunk {
			defer shrinkScan()()
			in = long[:257]
		}
		for _, procs := range []int{1, 2, 3, 4} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				for _, n := range []int{len(in), len(in) - 1, len(in) - 2} {
					want, wantEx := blockedScan(in[:n], 0, tilt, true), blockedScan(in[:n], 0, tilt, false)
					if wantEx[0] != 0 || firstDiff(wantEx[1:], want[:n-1]) >= 0 {
						t.Fatalf("n=%d: the plan's exclusive scan is not its inclusive one shifted", n)
					}
					for _, opts := range scanConfigs() {
						if i := firstDiff(Scan(in[:n], 0, tilt, opts...), want); i >= 0 {
							t.Fatalf("shrunk=%v n=%d GOMAXPROCS=%d with %d workers: Scan's out[%d] differs from the plan's", shrunk, n, procs, configure("Scan", opts).workers, i)
						}
						if i := firstDiff(ScanExclusive(in[:n], 0, tilt, opts...), wantEx); i >= 0 {
							t.Fatalf("shrunk=%v n=%d GOMAXPROCS=%d with %d workers: ScanExclusive's out[%d] differs from the plan's", shrunk, n, procs, configure("Scan", opts).workers, i)
						}
					}
				}
			}()
		}
	}
}

// TestScanPanics: a panic in op reaches the caller as a *PanicError, and
// a nil op panics with a message naming the call.
func TestScanPanics(t *testing.T) {
	in := make([]int, 1<<16)
	defer func() {
		var pe *PanicError
		if err, _ := recover().(error); !errors.As(err, &pe) || fmt.Sprint(pe.Value) != "op" {
			t.Errorf("Scan with a panicking op: recovered %v; want a *PanicError of \"op\"", err)
		}
		defer func() {
			if msg := fmt.Sprint(recover()); !strings.Contains(msg, "pfor: ScanExclusive: op is nil") {
				t.Errorf("ScanExclusive(nil op) panicked with %q", msg)
			}
		}()
		ScanExclusive(in, 0, nil)
	}()

	Scan(in, 0, func(a, b int) int {
		if b == 0 && a == 0 {
			panic("op")
		}
		return a + b
	}, WithWorkers(2))
}

// TestScanPanicsInCarries: a panic in op where the caller combines the
// blocks' carries reaches it as a *PanicError too.
func TestScanPanicsInCarries(t *testing.T) {
	in := make([]int, 1<<16)
	for i := range in {
		in[i] = 1
	}
	defer func() {
		var pe *PanicError
		if err, _ := recover().(error); !errors.As(err, &pe) || fmt.Sprint(pe.Value) != "carry" {
			t.Errorf("Scan with an op panicking in the carries: recovered %v; want a *PanicError of \"carry\"", err)
		}
	}()
	Scan(in, 0, func(a, b int) int {
		if b > 1 { // only a block's sum is more than 1
			panic("carry")
		}
		return a + b
	}, WithWorkers(2))
}

// TestScanPanicsInline: a panic in op of a scan short enough to run on the
// caller alone reaches it as a *PanicError too, named for the call.
func TestScanPanicsInline(t *testing.T) {
	defer func() {
		var pe *PanicError
		if err, _ := recover().(error); !errors.As(err, &pe) || pe.Call != "ScanExclusive" {
			t.Errorf("ScanExclusive of 3 elements with a panicking op: recovered %v; want a *PanicError of ScanExclusive", err)
		}
	}()
	ScanExclusive([]int{1, 2, 3}, 0, func(a, b int) int { panic("op") })
}
