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
				if r, _ := recover().(error); !errors.As(r, &pe) || pe.Call != "plinq query" {
					t.Errorf("%s: recovered %#v; want a *pfor.PanicError with Call \"plinq query\"", name, pe)
				}
			}()
			run()
		}()
	}
}
