package plinq_test

import (
	"errors"
	"iter"
	"runtime"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

var errBoom = errors.New("boom")

// boomAt panics with errBoom at element 3000 of a Range.
func boomAt(i int) {
	if i == 3000 {
		panic(errBoom)
	}
}

// panicking are runs of queries whose functions panic, one per place where
// plinq calls user code: inside workers, and on the caller's goroutine.
var panicking = map[string]func(){
	"Where":  func() { must(plinq.Range(0, 5000).Where(func(i int) bool { boomAt(i); return true }).ToSlice()) },
	"Select": func() { must(plinq.Select(plinq.Range(0, 5000), func(i int) int { boomAt(i); return i }).ToSlice()) },
	"SelectIndexed": func() {
		must(plinq.SelectIndexed(plinq.Range(0, 5000), func(i, x int) int { boomAt(i); return x }).ToSlice())
	},
	"SelectMany": func() {
		must(plinq.SelectMany(plinq.Range(0, 5000), func(i int) []int { boomAt(i); return nil }).ToSlice())
	},
	"Zip": func() {
		must(plinq.Zip(plinq.Range(0, 5000), plinq.Range(0, 5000), func(a, b int) int { boomAt(a); return b }).ToSlice())
	},
	"OrderBy": func() { must(plinq.Range(0, 5000).OrderBy(func(a, b int) int { boomAt(a); return b - a }).ToSlice()) },
	"OrderByKey": func() {
		must(plinq.OrderByKey(plinq.Range(0, 5000), func(i int) int { boomAt(i); return -i }).ToSlice())
	},
	"TakeWhile": func() { must(plinq.Range(0, 5000).TakeWhile(func(i int) bool { boomAt(i); return true }).ToSlice()) },
	"SkipWhile": func() { must(plinq.Range(0, 5000).SkipWhile(func(i int) bool { boomAt(i); return true }).ToSlice()) },
	"GroupBy": func() {
		must(plinq.GroupBy(plinq.Range(0, 5000), func(i int) int { boomAt(i); return i % 3 }).ToSlice())
	},
	"DistinctBy": func() {
		must(plinq.DistinctBy(plinq.Range(0, 5000), func(i int) int { boomAt(i); return i % 3 }).ToSlice())
	},
	"Join": func() {
		must(plinq.Join(plinq.Range(0, 5000), plinq.Range(0, 10), func(i int) int { boomAt(i); return i }, func(i int) int { return i },
			func(a, b int) int { return a }).ToSlice())

	},
	"CountBy": func() {
		must(plinq.CountBy(plinq.Range(0, 5000), func(i int) int { boomAt(i); return i % 3 }).ToSlice())
	},
	"ToMap": func() {
		must(plinq.ToMap(plinq.Range(0, 5000), func(i int) int { return i }, func(i int) int { boomAt(i); return i }))
	},
	"Any":    func() { must(plinq.Range(0, 5000).Any(func(i int) bool { boomAt(i); return false })) },
	"First":  func() { must(plinq.Range(0, 5000).Where(func(i int) bool { boomAt(i); return i == 4000 }).First()) },
	"ForAll": func() { mustDo(plinq.Range(0, 5000).ForAll(boomAt)) },
	"Aggregate": func() {
		must(plinq.Aggregate(plinq.Range(0, 5000), 0, func(a, i int) int { boomAt(i); return a }, func(a, b int) int { return a }))
	},
	"AggregateBy key": func() {
		must(plinq.AggregateBy(plinq.Range(0, 5000), func(i int) int { boomAt(i); return i % 3 }, 0, func(a, i int) int { return a + i }, func(a, b int) int { return a + b }).ToSlice())
	},
	"AggregateBy fold": func() {
		must(plinq.AggregateBy(plinq.Range(0, 5000), func(i int) int { return i % 3 }, 0, func(a, i int) int { boomAt(i); return a + i }, func(a, b int) int { return a + b }).ToSlice())
	},
	"AggregateBy combine, on the caller": func() {
		must(plinq.AggregateBy(plinq.Range(0, 5000), func(i int) int { return i % 3 }, 0, func(a, i int) int { return a + i }, func(a, b int) int { panic(errBoom) }).ToSlice())
	},
	"Aggregate combine, on the caller": func() {
		must(plinq.Aggregate(plinq.Range(0, 5000), 0, func(a, i int) int { return a + i }, func(a, b int) int { panic(errBoom) }))
	},
	"Scan": func() {
		must(plinq.Scan(plinq.Range(0, 1<<16), 0, func(a, i int) int { boomAt(i); return a + i }).ToSlice())
	},
	"ScanExclusive": func() {
		must(plinq.ScanExclusive(plinq.Range(0, 1<<16), 0, func(a, i int) int { boomAt(i); return a + i }).ToSlice())
	},
	"MinBy": func() { must(plinq.MinBy(plinq.Range(0, 5000), func(i int) int { boomAt(i); return i })) },
	"FromSeq, on the caller": func() {
		must(plinq.FromSeq(iter.Seq[int](func(yield func(int) bool) { panic(errBoom) })).Count())
	},
}

// TestPanicsBecomePanicError: a panic in any function given to plinq stops
// the run and reaches the caller of the terminal operation as a
// *pfor.PanicError holding the value and the stack of the panic site.
func TestPanicsBecomePanicError(t *testing.T) {
	for name, run := range panicking {
		for _, w := range []int{1, 3} {
			func() {
				defer func() {
					v := recover()
					pe, ok := v.(*pfor.PanicError)
					if !ok {
						t.Fatalf("%s with %d workers: recovered %T %v; want *pfor.PanicError", name, w, v, v)
					}
					if !errors.Is(pe, errBoom) || len(pe.Stack) == 0 {
						t.Errorf("%s with %d workers: PanicError{%v, %d-byte stack}; want errBoom and a stack", name, w, pe.Value, len(pe.Stack))
					}
				}()
				defer setWorkers(w)()
				run()
			}()
		}
	}
}

// setWorkers sets GOMAXPROCS, which sets the default worker count, and
// returns a function that restores it.
func setWorkers(n int) func() {
	old := runtime.GOMAXPROCS(n)
	return func() { runtime.GOMAXPROCS(old) }
}

// TestNoLeaks: runs that end normally, early, by panic or by cancellation
// leave no goroutine behind (beyond the pool's warm helpers, which the
// widest run starts first).
func TestNoLeaks(t *testing.T) {
	must(plinq.Range(0, 1<<12).With(pfor.WithWorkers(8)).Count())
	must(plinq.Range(0, 1<<12).With(pfor.WithWorkers(8)).Where(func(int) bool { return true }).Count())
	time.Sleep(10 * time.Millisecond)
	base := runtime.NumGoroutine()
	for i := range 60 {
		q := plinq.Range(0, 1<<14).With(pfor.WithWorkers(1 + i%8))
		switch i % 4 {
		case 0:
			must(q.Where(func(i int) bool { return i%3 == 0 }).ToSlice())
		case 1:
			must(q.Where(func(i int) bool { return i > 100 }).First())
		case 2:
			catch(panicking["OrderBy"])
		case 3:
			ctx, cancel := canceledAfter(q, 500)
			if _, err := ctx.Count(); err == nil {
				t.Error("Count of a query canceled midway returned a nil error")
			}
			cancel()
		}
	}
	var now int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); { // exiting goroutines may wait for a core
		if now = runtime.NumGoroutine(); now <= base {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines; want at most %d as before:\n%s", now, base, buf[:runtime.Stack(buf, true)])
}
