package plinq_test

import (
	"errors"
	"testing"

	"github.com/stealkit/stealkit/pfor"
)

// TestPanicNamesPlinq: a panic of a query's function, run by a worker or on
// the caller's goroutine, reaches the caller named as a plinq operation,
// not as the pfor loop that ran it.
func TestPanicNamesPlinq(t *testing.T) {
	for name, run := range panicking {
		func() {
			defer func() {
				var pe *pfor.PanicError
				r := recover()
				if err, _ := r.(error); !errors.As(err, &pe) {
					t.Errorf("%s: recovered %T %v; want a *pfor.PanicError with Call \"plinq query\"", name, r, r)
				} else if pe.Call != "plinq query" {
					t.Errorf("%s: recovered a *pfor.PanicError with Call %q; want \"plinq query\"", name, pe.Call)
				}
			}()
			run()
		}()
	}
}
