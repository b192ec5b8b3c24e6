package plinq_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// An elemErr is the error of the element at position i of the source, from
// the stage named stage.
type elemErr struct {
	stage string
	i     int
}

func (e elemErr) Error() string { return fmt.Sprintf("%s failed at %d", e.stage, e.i) }

// An indexed value: the source position travels with the value, so that a
// failing stage can name it.
type ix struct{ i, v int }

// TestSelectErrFirstInOrder: with two fallible stages and a filter between
// them, every terminal that runs the whole query returns the error of the
// first failing element in query order, the one a sequential loop (element
// by element, stage by stage) meets first, under every config, with the
// real sizes and with every size shrunk, at GOMAXPROCS 1 and 8 (more
// worker goroutines than cores) as well as the default. First returns that
// error only if no answer precedes it.
func TestSelectErrFirstInOrder(t *testing.T) {
	for _, shrunk := range []bool{false, true} {
		t.Run(fmt.Sprintf("shrunk=%v", shrunk), func(t *testing.T) {
			n := 40
			if shrunk {
				defer plinq.ShrinkSizes()()
			}
			if testing.Short() {
				n = 10
			}
			r := rand.New(rand.NewPCG(7, uint64(len(t.Name()))))
			for range n {
				checkSelectErr(t, r)
			}
			for _, procs := range []int{1, 8} {
				restore := setWorkers(procs)
				for range 3 {
					checkSelectErr(t, r)
				}
				restore()
			}
		})
	}
}

func checkSelectErr(t *testing.T, r *rand.Rand) {
	t.Helper()
	s := randSlice(r)
	for i := range s {
		s[i] *= 1 + r.IntN(200) // rarer failures: |v| > 3000 fails
	}
	failF := func(p ix) bool { return p.v > 3000 }
	failG := func(p ix) bool { return p.v < -3000 }
	keep := func(p ix) bool { return p.v%3 != 0 }
	f := func(p ix) (ix, error) {
		if p.i%16 == 0 {
			runtime.Gosched() // injected preemption: other workers fail, cut and stop meanwhile
		}
		if failF(p) {
			return p, elemErr{"f", p.i}
		}
		return p, nil
	}
	g := func(p ix) (int, error) {
		if failG(p) {
			return 0, elemErr{"g", p.i}
		}
		return p.v, nil
	}
	// The reference: element by element, f, the filter, g.
	var want []int
	var wantErr error
	firstWant, firstErr, firstFound := 0, error(nil), false
	for i, v := range s {
		p := ix{i, v}
		if failF(p) {
			wantErr = elemErr{"f", i}
			break
		}
		if !keep(p) {
			continue
		}
		if failG(p) {
			wantErr = elemErr{"g", i}
			break
		}
		if !firstFound {
			firstWant, firstFound = v, true
		}
		want = append(want, v)
	}
	if !firstFound {
		firstErr = wantErr
	}
	src := plinq.SelectIndexed(plinq.From(s), func(i, v int) ix { return ix{i, v} })
	q := plinq.SelectErr(plinq.SelectErr(src, f).Where(keep), g)
	for _, opts := range configs() {
		qo := q.With(opts...)
		for name, run := range map[string]func() (any, error){
			"ToSlice": func() (any, error) { return qo.ToSlice() },
			"Count":   func() (any, error) { return qo.Count() },
			"Sum":     func() (any, error) { return plinq.Sum(qo) },
			"ForAll":  func() (any, error) { return nil, qo.ForAll(func(int) {}) },
			"ForAllErr(g)": func() (any, error) {
				// g as the last stage's function instead: the same first error.
				return nil, plinq.SelectErr(src.With(opts...), f).Where(keep).ForAllErr(func(p ix) error { _, err := g(p); return err })
			},
			"CountBy": func() (any, error) { return plinq.CountBy(qo, func(v int) int { return v % 5 }).ToSlice() },
			"GroupBy": func() (any, error) { return plinq.GroupBy(qo, func(v int) int { return v % 5 }).ToSlice() },
			"AggregateBy": func() (any, error) {
				return plinq.AggregateBy(qo, func(v int) int { return v % 5 }, 0, func(a, v int) int { return a + v }, func(a, b int) int { return a + b }).ToSlice()
			},
			"Distinct": func() (any, error) { return plinq.Distinct(qo).ToSlice() },
			"OrderByKey.ToSlice": func() (any, error) {
				return plinq.OrderByKey(qo, func(v int) int { return -v }).ToSlice()
			},
			"Values": func() (any, error) {
				seq, errf := qo.Values()
				return slices.Collect(seq), errf()
			},
		} {
			_, err := run()
			if err != wantErr {
				t.Fatalf("%d elements, %s with %d options: error %v; want %v", len(s), name, len(opts), err, wantErr)
			}
		}
		got, err := qo.ToSlice()
		if err == nil && !slices.Equal(got, want) {
			t.Fatalf("%d elements, ToSlice with %d options = %v; want %v", len(s), len(opts), got, want)
		}
		if v, err := qo.FirstOrDefault(); v != firstWant || err != firstErr {
			t.Fatalf("%d elements, FirstOrDefault with %d options = %d, %v; want %d, %v", len(s), len(opts), v, err, firstWant, firstErr)
		}
	}
}

// binaryOps are the operators that combine two queries, each run by
// ToSlice to its length (ToSlice runs indexed queries, which Count does not).
var binaryOps = map[string]func(a, b plinq.Query[int]) (int, error){
	"Concat": func(a, b plinq.Query[int]) (int, error) { return length(plinq.Concat(a, b)) },
	"Zip": func(a, b plinq.Query[int]) (int, error) {
		return length(plinq.Zip(a, b, func(x, y int) int { return x + y }))
	},
	"Union":     func(a, b plinq.Query[int]) (int, error) { return length(plinq.Union(a, b)) },
	"Intersect": func(a, b plinq.Query[int]) (int, error) { return length(plinq.Intersect(a, b)) },
	"Except":    func(a, b plinq.Query[int]) (int, error) { return length(plinq.Except(a, b)) },
	"Join": func(a, b plinq.Query[int]) (int, error) {
		id := func(x int) int { return x }
		return length(plinq.Join(a, b, id, id, func(x, y int) int { return x }))
	},
}

func length(q plinq.Query[int]) (int, error) {
	s, err := q.ToSlice()
	return len(s), err
}

// TestBinaryOpsMergeContexts: a binary operator's run stops when either
// input's context is done, in either argument order, and returns that
// context's error; with live contexts it returns every element.
func TestBinaryOpsMergeContexts(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	live, stop := context.WithCancel(context.Background())
	defer stop()
	var calls atomic.Int64
	counted := func(x int) bool { calls.Add(1); return true }
	for name, op := range binaryOps {
		a, b := plinq.Range(0, 100), plinq.Range(50, 150).Where(counted)
		for _, order := range []string{"(a, canceled)", "(canceled, a)"} {
			calls.Store(0)
			var err error
			if order == "(a, canceled)" {
				_, err = op(a, b.WithContext(ctx))
			} else {
				_, err = op(b.WithContext(ctx), a)
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s%s: error %v; want context.Canceled", name, order, err)
			}
			if c := calls.Load(); c != 0 {
				t.Errorf("%s%s: the canceled query's function was called %d times; want 0", name, order, c)
			}
		}
		want, _ := op(a, b)
		if got, err := op(a.WithContext(live), b.WithContext(live)); got != want || err != nil || want == 0 {
			t.Errorf("%s with live contexts = %d, %v; want %d (> 0), nil", name, got, err, want)
		}
	}
}

// TestBinaryOpsOptions: options set on one input apply to the result,
// whichever input it is; the same options on both (one query's branches)
// are no conflict; different options on both panic, naming the operator.
func TestBinaryOpsOptions(t *testing.T) {
	for name, op := range binaryOps {
		var stats pfor.Stats
		withStats := plinq.Range(0, 1<<14).With(pfor.WithWorkers(3), pfor.WithStats(&stats))
		plain := plinq.Range(0, 1<<14)
		for _, order := range []string{"(options, plain)", "(plain, options)"} {
			stats = pfor.Stats{}
			if order == "(options, plain)" {
				must(op(withStats, plain))
			} else {
				must(op(plain, withStats))
			}
			if s := stats.String(); s == (&pfor.Stats{}).String() {
				t.Errorf("%s%s: the options' WithStats recorded nothing", name, order)
			}
		}
		if msg := catch(func() { must(op(withStats.Where(func(int) bool { return true }), withStats.Skip(1))) }); msg != "" {
			t.Errorf("%s of two branches of one query panicked: %s", name, msg)
		}
		other := plinq.Range(0, 10).With(pfor.WithWorkers(3))
		want := "plinq: " + name + ": both queries have options"
		if msg := catch(func() { must(op(withStats, other)) }); !strings.Contains(msg, want) {
			t.Errorf("%s of two queries with different options panicked with %q; want %q", name, msg, want)
		}
	}
}

// TestBinaryOpsOrderedUnlessBoth: a binary operator's result is unordered
// only if both inputs are: Concat of an unordered filter and an ordered
// query delivers the filter's elements in order, in either argument order.
func TestBinaryOpsOrderedUnlessBoth(t *testing.T) {
	const n = 1 << 16
	keep := func(x int) bool { return x%3 != 0 }
	filtered := plinq.Range(0, n).Where(keep).With(pfor.WithWorkers(4), pfor.WithPartitioner(partition.Dynamic(64)))
	want := refWhere(must(plinq.Range(0, n).ToSlice()), keep)
	for range 5 {
		if got := must(plinq.Concat(filtered.Unordered(), plinq.Range(0, 0)).ToSlice()); !slices.Equal(got, want) {
			t.Fatal("Concat(unordered, ordered).ToSlice() is out of order")
		}
		if got := must(plinq.Concat(plinq.Range(0, 0), filtered.Unordered()).ToSlice()); !slices.Equal(got, want) {
			t.Fatal("Concat(ordered, unordered).ToSlice() is out of order")
		}
	}
}

// TestSelectErrStopsPromptly: once a call fails, the chunks after its
// element stop at a later batch, with every partitioner, instead of running
// to the end of the input. Elements past the failing one wait until it has
// been called, so that no worker runs ahead of the failure before it
// happens; the bound leaves room for the failing worker to be descheduled
// between its call's return and the recording of its error.
func TestSelectErrStopsPromptly(t *testing.T) {
	const n, k = 1 << 24, 5000
	boom := errors.New("boom")
	for _, p := range []partition.Partitioner{partition.Static(), partition.Dynamic(1 << 20), partition.Auto()} {
		var calls atomic.Int64
		var failed atomic.Bool
		q := plinq.SelectErr(plinq.Range(0, n).With(pfor.WithWorkers(2), pfor.WithPartitioner(p)), func(x int) (int, error) {
			calls.Add(1)
			if x == k {
				failed.Store(true)
				return 0, boom
			}
			for x > k && !failed.Load() {
				runtime.Gosched()
			}
			return x, nil
		})
		if _, err := plinq.Sum(q); err != boom {
			t.Errorf("Sum with %s: error %v; want %v", p.Name(), err, boom)
		}
		if c := calls.Load(); c > k+n/4 {
			t.Errorf("Sum with %s: f called %d times, failing at element %d of %d; want the run to stop long before the end", p.Name(), c, k, n)
		}
	}
}

// TestValuesReportsEachIteration: the error function of Values reports the
// latest iteration: a failure, then nil once an iteration runs through, and
// All reports as Values does.
func TestValuesReportsEachIteration(t *testing.T) {
	boom := errors.New("boom")
	var failing atomic.Bool
	failing.Store(true)
	q := plinq.SelectErr(plinq.Range(0, 10), func(x int) (int, error) {
		if failing.Load() && x == 5 {
			return 0, boom
		}
		return x, nil
	})
	seq, errf := q.Values()
	if got := slices.Collect(seq); len(got) > 5 || errf() != boom {
		t.Errorf("failing iteration yielded %v and reported %v; want at most [0 1 2 3 4] and %v", got, errf(), boom)
	}
	failing.Store(false)
	if got := slices.Collect(seq); len(got) != 10 || errf() != nil {
		t.Errorf("second iteration yielded %v and reported %v; want 10 elements and nil", got, errf())
	}
	failing.Store(true)
	all, allErr := q.All()
	for range all {
	}
	if allErr() != boom {
		t.Errorf("All of a failing query reported %v; want %v", allErr(), boom)
	}
}

// TestValuesLoopBodyPanicPassesThrough: a panic in the range loop over Values
// or All is the caller's own: it reaches the caller as it was raised, not as
// a *pfor.PanicError nor as the iteration's error.
func TestValuesLoopBodyPanicPassesThrough(t *testing.T) {
	seq, errf := plinq.Range(0, 100_000).Values()
	all, allErr := plinq.Range(0, 100_000).All()
	for _, tc := range []struct {
		name string
		loop func()
		errf func() error
	}{
		{"Values", func() {
			for v := range seq {
				if v == 3 {
					panic("mine")
				}
			}
		}, errf},
		{"All", func() {
			for i := range all {
				if i == 3 {
					panic("mine")
				}
			}
		}, allErr},
	} {
		var got any
		func() {
			defer func() { got = recover() }()
			tc.loop()
		}()
		if got != "mine" {
			t.Errorf("%s: loop body panicked with \"mine\"; recovered %T %v", tc.name, got, got)
		}
		if err := tc.errf(); err != nil {
			t.Errorf("%s: after a panic in the loop body, the error function reported %v; want nil", tc.name, err)
		}
	}
}
