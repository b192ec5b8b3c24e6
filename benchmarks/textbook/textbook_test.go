package textbook

import (
	"fmt"
	"runtime"
	"testing"
)

// procs are the GOMAXPROCS the tests run under: one processor (no pool
// worker but the caller), this machine's, and oversubscribed.
var procs = []int{1, 2, 8}

func sweep(t *testing.T, f func(t *testing.T)) {
	for _, p := range procs {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", p), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
			f(t)
		})
	}
}

// TestMulVariantsMatchSequential: every parallel Mul computes exactly the
// sequential product, for sizes from empty to uneven, starting from a
// result matrix full of garbage so that a cell left unwritten shows.
func TestMulVariantsMatchSequential(t *testing.T) {
	sweep(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 2, 7, 16, 33} {
			a, b := Random(n, 1), Random(n, 2)
			bt := b.Transpose()
			want := New(n)
			Mul(MulSeq, want, a, bt)
			for _, v := range MulVariants {
				got := Random(n, 3)
				Mul(v, got, a, bt)
				if err := Diff(got, want); err != nil {
					t.Errorf("Mul(%s) n=%d: %v", v, n, err)
				}
			}
		}
	})
}

// TestMulSequential: the sequential product is the textbook one, on a case
// worked by hand.
func TestMulSequential(t *testing.T) {
	a := &Matrix{2, []float64{1, 2, 3, 4}}
	b := &Matrix{2, []float64{5, 6, 7, 8}}
	got := New(2)
	Mul(MulSeq, got, a, b.Transpose())
	if err := Diff(got, &Matrix{2, []float64{19, 22, 43, 50}}); err != nil {
		t.Errorf("[[1 2] [3 4]] × [[5 6] [7 8]]: %v", err)
	}
}

// TestAddVariantsMatchSequential: every parallel Add, at every base case
// from single entries up to the whole matrix, computes exactly the
// sequential sum.
func TestAddVariantsMatchSequential(t *testing.T) {
	sweep(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 2, 7, 16, 33, 64} {
			a, b := Random(n, 1), Random(n, 2)
			want := New(n)
			Add(AddSeq, want, a, b, 0)
			for i, v := range want.A {
				if v != a.A[i]+b.A[i] {
					t.Fatalf("Add(seq) n=%d: c[%d][%d] = %v; want %v", n, i/n, i%n, v, a.A[i]+b.A[i])
				}
			}
			for _, v := range AddVariants {
				for _, base := range []int{1, 3, 8, 64} {
					got := Random(n, 3)
					Add(v, got, a, b, base)
					if err := Diff(got, want); err != nil {
						t.Errorf("Add(%s, base %d) n=%d: %v", v, base, n, err)
					}
				}
			}
		}
	})
}

func TestAddTasks(t *testing.T) {
	for _, tc := range []struct{ n, base, want int }{
		{4, 4, 0}, {4, 2, 4}, {4, 1, 20}, {8, 1, 84}, {0, 1, 0},
		{3, 1, 4 + 0 + 4 + 4 + 4}, // quadrants 1x1, 1x2, 2x1, 2x2
	} {
		if got := AddTasks(tc.n, tc.base); got != tc.want {
			t.Errorf("AddTasks(%d, %d) = %d; want %d", tc.n, tc.base, got, tc.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		call, want string
		f          func()
	}{
		{"New(-1)", "textbook: New(-1): negative size", func() { New(-1) }},
		{"Mul unknown", "textbook: Mul: unknown variant nope", func() { Mul("nope", New(1), New(1), New(1)) }},
		{"Add unknown", "textbook: Add: unknown variant nope", func() { Add("nope", New(1), New(1), New(1), 1) }},
		{"Add base 0", "textbook: Add: base case must be at least 1 row", func() { Add(AddFuture, New(1), New(1), New(1), 0) }},
	} {
		func() {
			defer func() {
				if r := recover(); r != tc.want {
					t.Errorf("%s: panic %v; want %q", tc.call, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}
