package pfor

import "fmt"

// PanicError is what a parallel call re-raises in the caller's goroutine when
// a body panics: the value passed to panic and the stack of the goroutine
// that panicked, captured at the panic site.
//
//	defer func() {
//		if pe, ok := recover().(*pfor.PanicError); ok {
//			log.Printf("worker panicked: %v\n%s", pe.Value, pe.Stack)
//		}
//	}()
//
// Where the value is an error, Unwrap returns it, so errors.Is and errors.As
// see through a PanicError (for instance one returned by a Group).
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the panicking goroutine's stack, as runtime/debug.Stack formats it
}

// Error describes the panic; the stack is in Stack.
func (p *PanicError) Error() string { return fmt.Sprintf("pfor: panic in parallel body: %v", p.Value) }

// Unwrap returns the panic value if it is an error, else nil.
func (p *PanicError) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}
