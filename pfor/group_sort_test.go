package pfor_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stealkit/stealkit/pfor"
)

// sortSizes returns sizes that cross every threshold of the sort:
// sequential, one split, leaves of the smallest and largest size, odd
// lengths; the largest only without the race detector.
func sortSizes() []int {
	if groupRace || testing.Short() {
		return []int{0, 1, 2, 100, 1<<14 - 1, 1 << 14, 1<<14 + 1, 40_001}
	}
	return []int{0, 1, 2, 100, 1<<14 - 1, 1 << 14, 1<<14 + 1, 100_003, 300_001}
}

// sortProcs are the GOMAXPROCS the sort tests run under.
func sortProcs() []int {
	if groupRace || testing.Short() {
		return []int{1, 3}
	}
	return []int{1, 2, 3, 8}
}

// TestSortMatchesSlicesSort: pfor.Sort gives what slices.Sort gives, for
// random, sorted, reversed and few-valued inputs, and floats with NaNs and
// signed zeros, under several GOMAXPROCS.
func TestSortMatchesSlicesSort(t *testing.T) {
	procSweepOf(t, sortProcs(), func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		for _, n := range sortSizes() {
			for _, shape := range []string{"random", "sorted", "reversed", "fewvalues"} {
				x := make([]int64, n)
				for i := range x {
					switch shape {
					case "random":
						x[i] = rng.Int64()
					case "sorted":
						x[i] = int64(i)
					case "reversed":
						x[i] = int64(n - i)
					case "fewvalues":
						x[i] = rng.Int64N(4)
					}
				}
				want := slices.Clone(x)
				slices.Sort(want)
				pfor.Sort(x)
				if !slices.Equal(x, want) {
					t.Fatalf("Sort of %d %s int64s differs from slices.Sort", n, shape)
				}
			}
		}
		f := make([]float64, sortSizes()[len(sortSizes())-1])
		for i := range f {
			switch i % 7 {
			case 0:
				f[i] = math.NaN()
			case 1:
				f[i] = math.Copysign(0, -1)
			default:
				f[i] = rng.NormFloat64()
			}
		}
		want := slices.Clone(f)
		slices.Sort(want)
		pfor.Sort(f)
		if d := gocmp.Diff(want, f, cmpopts.EquateNaNs()); d != "" {
			t.Fatalf("Sort of floats with NaNs differs from slices.Sort (-want +got):\n%s", d)
		}
	})
}

// TestSortStableFuncIsStable: SortStableFunc sorts by key and keeps equal
// keys in input order, as slices.SortStableFunc does.
func TestSortStableFuncIsStable(t *testing.T) {
	type rec struct{ key, pos int }
	byKey := func(a, b rec) int { return cmp.Compare(a.key, b.key) }
	procSweepOf(t, sortProcs(), func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		for _, n := range sortSizes() {
			for _, keys := range []int{3, 1000, math.MaxInt} {
				x := make([]rec, n)
				for i := range x {
					x[i] = rec{rng.IntN(keys), i}
				}
				want := slices.Clone(x)
				slices.SortStableFunc(want, byKey)
				pfor.SortStableFunc(x, byKey)
				if !slices.Equal(x, want) {
					t.Fatalf("SortStableFunc of %d records with %d keys differs from slices.SortStableFunc", n, keys)
				}
			}
		}
	})
}

// TestSortStableFuncPanics: a panicking cmp reaches the caller as a
// *PanicError.
func TestSortStableFuncPanics(t *testing.T) {
	x := make([]int, 1<<16)
	for i := range x {
		x[i] = len(x) - i
	}
	pe, other := recoverPanic(func() {
		pfor.SortStableFunc(x, func(a, b int) int {
			if a == 777 || b == 777 {
				panic(fmt.Sprint("cmp saw ", 777))
			}
			return cmp.Compare(a, b)
		})
	})
	if pe == nil || pe.Value != "cmp saw 777" {
		t.Fatalf("SortStableFunc with a panicking cmp: recovered %v, %v; want *PanicError{Value: \"cmp saw 777\"}", pe, other)
	}
}
