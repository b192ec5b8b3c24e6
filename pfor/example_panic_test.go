package pfor_test

import (
	"errors"
	"fmt"
	"io"

	"github.com/stealkit/stealkit/pfor"
)

// A body that panics with an error: Unwrap lets errors.Is see through the
// *PanicError to it.
func ExamplePanicError_Unwrap() {
	defer func() {
		err := recover().(error)
		fmt.Println(errors.Is(err, io.ErrUnexpectedEOF))
		var pe *pfor.PanicError
		fmt.Println(errors.As(err, &pe), pe.Call)
	}()
	pfor.Map([]string{"a", ""}, func(s string) byte {
		if s == "" {
			panic(io.ErrUnexpectedEOF)
		}
		return s[0]
	})
	// Output:
	// true
	// true Map
}
