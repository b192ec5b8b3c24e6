package pfor_test

import (
	"errors"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

func recoverPanic(f func()) (pe *pfor.PanicError, other any) {
	defer func() {
		r := recover()
		pe, _ = r.(*pfor.PanicError)
		if pe == nil {
			other = r
		}
	}()
	f()
	return nil, nil
}

func explode(i int) {
	if i == 777 {
		panic("boom at 777")
	}
}

// TestPanicReachesCaller: a panic in a body, on any worker, is re-raised in
// the caller as a *PanicError with the original value and the stack of the
// panic site; work stops being handed out, and no goroutine is left behind.
func TestPanicReachesCaller(t *testing.T) {
	base := goroutines(t)
	for _, p := range partitioners {
		var after atomic.Int64
		var panicked atomic.Bool
		pe, other := recoverPanic(func() {
			pfor.Range(0, 100_000, func(i int) {
				if panicked.Load() {
					// Items after the panic take a while, so that a panicking
					// goroutine descheduled while it unwinds does not leave
					// the others time to run them all.
					after.Add(1)
					time.Sleep(10 * time.Microsecond)
				}
				if i == 777 {
					panicked.Store(true)
					explode(i)
				}
			}, pfor.WithPartitioner(p), pfor.WithWorkers(4), pfor.WithGrain(16))
		})
		if pe == nil {
			t.Fatalf("%s: recovered %v (%T); want a *pfor.PanicError", p.Name(), other, other)
		}
		if pe.Value != "boom at 777" {
			t.Errorf("%s: PanicError.Value = %v; want %q", p.Name(), pe.Value, "boom at 777")
		}
		if !strings.Contains(string(pe.Stack), "explode") {
			t.Errorf("%s: PanicError.Stack does not show the panic site (explode):\n%s", p.Name(), pe.Stack)
		}
		// Workers finish the chunk they are in and start no new one once the
		// panic is recovered; while the panicking goroutine unwinds, others
		// may still take a few small chunks. (Static and guided hand out big
		// chunks: only the others are checked.) Without stopping, ~99,000
		// items would run after the panic.
		if n := after.Load(); n > 10_000 && p.Name() != "static" && p.Name() != "guided" {
			t.Errorf("%s: %d items ran after the panic; want at most the chunks already started", p.Name(), n)
		}
	}
	checkNoGrowth(t, base)
}

// TestPanicErrorUnwraps: where the panic value is an error, errors.Is and
// errors.As see it through the *PanicError.
func TestPanicErrorUnwraps(t *testing.T) {
	pe, _ := recoverPanic(func() {
		pfor.Chunks(0, 1000, func(lo, hi int) {
			if lo <= 500 && 500 < hi {
				panic(&fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist})
			}
		}, pfor.WithWorkers(2))
	})
	if pe == nil {
		t.Fatal("Chunks did not re-raise the panic as *PanicError")
	}
	var pathErr *fs.PathError
	if !errors.As(pe, &pathErr) || pathErr.Path != "x" {
		t.Errorf("errors.As(PanicError, *fs.PathError) failed; Value = %v", pe.Value)
	}
	if !errors.Is(pe, fs.ErrNotExist) {
		t.Errorf("errors.Is(PanicError, fs.ErrNotExist) = false")
	}
	if !strings.Contains(pe.Error(), "open x") {
		t.Errorf("PanicError.Error() = %q; want it to describe the value", pe.Error())
	}
}

// TestPanicInlineIsWrapped: a small loop that runs inline panics with the
// same type, so callers need one recover.
func TestPanicInlineIsWrapped(t *testing.T) {
	pe, other := recoverPanic(func() { pfor.Range(0, 3, func(int) { panic(42) }, pfor.WithGrain(10)) })
	if pe == nil || pe.Value != 42 {
		t.Fatalf("inline Range panic: got %v, %v; want *PanicError{Value: 42}", pe, other)
	}
}

// TestDoPanic: Do runs the other functions and re-raises the panic.
func TestDoPanic(t *testing.T) {
	var ran atomic.Int32
	pe, _ := recoverPanic(func() {
		pfor.Do(func() { ran.Add(1) }, func() { panic("do") }, func() { ran.Add(1) })
	})
	if pe == nil || pe.Value != "do" {
		t.Fatalf("Do: recovered %v; want *PanicError{Value: \"do\"}", pe)
	}
}
