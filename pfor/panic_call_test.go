package pfor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

// TestPanicNamesItsCall: every entry point re-raises a panic of a function
// it was given as a *PanicError naming the call, on its inline path (one
// worker, a range within the grain, one block) as on its parallel one; and
// Error says which call it was.
func TestPanicNamesItsCall(t *testing.T) {
	boom := func() { panic("boom") }
	one := []pfor.Option{pfor.WithWorkers(1)}
	many := []pfor.Option{pfor.WithWorkers(4), pfor.WithGrain(2)}
	in := make([]int, 100_000)
	for _, tc := range []struct {
		call string
		f    func(opts ...pfor.Option)
	}{
		{"Range", func(o ...pfor.Option) { pfor.Range(0, 100, func(int) { boom() }, o...) }},
		{"Chunks", func(o ...pfor.Option) { pfor.Chunks(0, 100, func(int, int) { boom() }, o...) }},
		{"RangeErr", func(o ...pfor.Option) {
			pfor.RangeErr(context.Background(), 0, 100, func(int) error { boom(); return nil }, o...)
		}},
		{"ChunksLocal", func(o ...pfor.Option) {
			pfor.ChunksLocal(0, 100, func() int { return 0 }, func(int, int, int) { boom() }, nil, o...)
		}},
		{"ChunksLocal", func(o ...pfor.Option) { // finish, on the caller's goroutine
			pfor.ChunksLocal(0, 100, func() int { return 0 }, func(int, int, int) {}, func(int) { boom() }, o...)
		}},
		{"Map", func(o ...pfor.Option) { pfor.Map(in[:100], func(int) int { boom(); return 0 }, o...) }},
		{"MapIndexed", func(o ...pfor.Option) { pfor.MapIndexed(in[:100], func(int, int) int { boom(); return 0 }, o...) }},
		{"Reduce", func(o ...pfor.Option) { // one block: folded inline
			pfor.Reduce(in[:10], 0, func(int, int) int { boom(); return 0 }, func(a, b int) int { return a }, o...)
		}},
		{"Reduce", func(o ...pfor.Option) { // many blocks
			pfor.Reduce(in, 0, func(int, int) int { boom(); return 0 }, func(a, b int) int { return a }, o...)
		}},
		{"Reduce", func(o ...pfor.Option) { // combine, on the caller's goroutine
			pfor.Reduce(in, 0, func(a, _ int) int { return a }, func(a, b int) int { boom(); return a }, o...)
		}},
		{"ReduceRange", func(o ...pfor.Option) {
			pfor.ReduceRange(0, 10, 0, func(int, int) int { boom(); return 0 }, func(a, b int) int { return a }, o...)
		}},
		{"Do", func(...pfor.Option) { pfor.Do(func() {}, boom) }},
		{"Do", func(...pfor.Option) { pfor.Do(boom, func() {}) }},
		{"Join", func(...pfor.Option) { pfor.Join(boom, func() {}) }},
		{"Run", func(...pfor.Option) { pfor.Run(func(*pfor.Worker) { boom() }) }},
		{"Run", func(...pfor.Option) { // Worker.Join's inline half: left to the enclosing call
			pfor.Run(func(w *pfor.Worker) { w.Join(func(*pfor.Worker) {}, func(*pfor.Worker) { boom() }) })
		}},
		{"SortStableFunc", func(...pfor.Option) {
			x := make([]int, 100_000)
			pfor.SortStableFunc(x, func(a, b int) int { boom(); return 0 })
		}},
		{"SortStableFunc", func(...pfor.Option) { // too short to split: sorted inline
			pfor.SortStableFunc([]int{3, 2, 1}, func(a, b int) int { boom(); return 0 })
		}},
		{"Group task", func(...pfor.Option) {
			var g pfor.Group
			g.Go(func(*pfor.Worker) error { boom(); return nil })
			g.Wait()
		}},
		{"Future", func(...pfor.Option) { pfor.Spawn(nil, func(*pfor.Worker) int { boom(); return 0 }).Get(nil) }},
		{"Future", func(...pfor.Option) { pfor.Go(func() int { boom(); return 0 }).Wait() }},
	} {
		for _, opts := range [][]pfor.Option{one, many} {
			pe, other := recoverPanic(func() { tc.f(opts...) })
			if pe == nil || pe.Value != "boom" || pe.Call != tc.call {
				t.Errorf("%s with %d options: recovered %#v, %v; want *PanicError{Value: \"boom\", Call: %q}", tc.call, len(opts), pe, other, tc.call)
				continue
			}
			if want := "pfor: panic in " + tc.call + ": boom"; pe.Error() != want {
				t.Errorf("%s: Error() = %q; want %q", tc.call, pe.Error(), want)
			}
		}
	}
}

// TestNestedPanicPassesThrough: a *PanicError from a nested call reaches
// the outer caller unchanged, still naming the inner call, not wrapped in
// another.
func TestNestedPanicPassesThrough(t *testing.T) {
	pe, _ := recoverPanic(func() {
		pfor.Range(0, 100, func(int) {
			pfor.Reduce([]int{1, 2}, 0, func(int, int) int { panic("inner") }, func(a, b int) int { return a })
		}, pfor.WithWorkers(3), pfor.WithGrain(1))
	})
	if pe == nil || pe.Value != "inner" || pe.Call != "Reduce" {
		t.Errorf("Reduce panicking inside Range: recovered %#v; want *PanicError{Value: \"inner\", Call: \"Reduce\"}", pe)
	}
}

// TestNilOption: a nil Option gets a message naming the call and the
// argument, at every entry point that takes options.
func TestNilOption(t *testing.T) {
	ctx := context.Background()
	id := func(a, _ int) int { return a }
	for _, tc := range []struct {
		want string
		f    func()
	}{
		{"pfor: Range: opts[0] is nil", func() { pfor.Range(0, 10, func(int) {}, nil) }},
		{"pfor: Range: opts[1] is nil", func() { pfor.Range(0, 10, func(int) {}, pfor.WithWorkers(2), nil) }},
		{"pfor: Chunks: opts[0] is nil", func() { pfor.Chunks(0, 10, func(int, int) {}, nil) }},
		{"pfor: RangeErr: opts[0] is nil", func() { pfor.RangeErr(ctx, 0, 10, func(int) error { return nil }, nil) }},
		{"pfor: ChunksErr: opts[0] is nil", func() { pfor.ChunksErr(ctx, 0, 10, func(int, int) error { return nil }, nil) }},
		{"pfor: ChunksLocal: opts[0] is nil", func() {
			pfor.ChunksLocal(0, 10, func() int { return 0 }, func(int, int, int) {}, nil, nil)
		}},
		{"pfor: ChunksLocalErr: opts[0] is nil", func() {
			pfor.ChunksLocalErr(ctx, 0, 10, func() int { return 0 }, func(int, int, int) error { return nil }, nil, nil)
		}},
		{"pfor: Map: opts[0] is nil", func() { pfor.Map([]int{1}, func(int) int { return 0 }, nil) }},
		{"pfor: MapIndexed: opts[0] is nil", func() { pfor.MapIndexed([]int{1}, func(int, int) int { return 0 }, nil) }},
		{"pfor: MapErr: opts[0] is nil", func() { pfor.MapErr(ctx, []int{1}, func(int) (int, error) { return 0, nil }, nil) }},
		{"pfor: Reduce: opts[0] is nil", func() { pfor.Reduce([]int{1}, 0, id, id, nil) }},
		{"pfor: ReduceRange: opts[0] is nil", func() { pfor.ReduceRange(0, 1, 0, id, id, nil) }},
	} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || s != tc.want {
					t.Errorf("panic %v (%T); want the string %q", r, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

// TestBadArgumentsForkJoin: Join, Go, MapIndexed and ReduceRange check
// their arguments as the other calls do.
func TestBadArgumentsForkJoin(t *testing.T) {
	id := func(a, _ int) int { return a }
	for _, tc := range []struct {
		want string
		f    func()
	}{
		{"pfor: Join: a is nil", func() { pfor.Join(nil, func() {}) }},
		{"pfor: Join: b is nil", func() { pfor.Join(func() {}, nil) }},
		{"pfor: Go: f is nil", func() { pfor.Go[int](nil) }},
		{"pfor: MapIndexed: f is nil", func() { pfor.MapIndexed[int, int]([]int{1}, nil) }},
		{"pfor: ReduceRange(3, 2): hi < lo", func() { pfor.ReduceRange(3, 2, 0, id, id) }},
		{"pfor: ReduceRange: fold is nil", func() { pfor.ReduceRange(0, 2, 0, nil, id) }},
		{"pfor: ReduceRange: combine is nil", func() { pfor.ReduceRange(0, 2, 0, id, nil) }},
		{"pfor: NewGroup(nil)", func() { pfor.NewGroup(nil) }}, //nolint:staticcheck // testing the nil check
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), tc.want) {
					t.Errorf("panic %v; want one starting %q", r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}
