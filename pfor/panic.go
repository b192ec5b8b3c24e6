package pfor

import (
	"fmt"
	"runtime/debug"
)

// PanicError is what a call of this package re-raises in the caller's
// goroutine when a function it was given panics: the value passed to panic,
// the stack of the goroutine that panicked, captured at the panic site, and
// the call the function was given to.
//
//	defer func() {
//		if pe, ok := recover().(*pfor.PanicError); ok {
//			log.Printf("%s panicked: %v\n%s", pe.Call, pe.Value, pe.Stack)
//		}
//	}()
//
// The rule is the same for every entry point (loops, Map, Reduce, Do, Join,
// Group, futures, Sort, plinq's operations), whether the function ran on a
// worker or inline on the caller's goroutine: the panic reaches the caller
// as a *PanicError. A panic that already is a *PanicError (a nested call's)
// passes through unchanged, so Call names the innermost call that caught
// the panic and Stack is still that of the panic site. Worker.Join and Both,
// the fast path inside a task, run inside another call (Run, a Group task,
// a future) and leave their panics to it: that call's name is the one
// given.
//
// Where the value is an error, Unwrap returns it, so errors.Is and errors.As
// see through a PanicError (for instance one returned by a Group).
//
// A PanicError that nobody recovers ends the program as any panic does: the
// runtime prints Error(), which has no stack, and the stack of the caller
// that re-raised it, not that of the panic site. To see where the function
// panicked, recover and print Stack, as above.
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the panicking goroutine's stack, as runtime/debug.Stack formats it

	// Call names the call the panicking function was given to, as it is
	// spelled: "Range", "Map", "Reduce", "Do", "Join", "Run", "Sort", ...;
	// "Group task" for a task of a Group, "Future" for a future's task, and
	// "plinq query" for a function of a plinq query. It is "" where no
	// call has named it yet: in a PanicError made by other code, or one
	// recovered right around a Worker.Join or Both whose stolen half
	// panicked, before the enclosing call names it.
	Call string
}

// Error describes the panic and the call it came from, as in
// "pfor: panic in Reduce: boom"; the stack is in Stack.
func (p *PanicError) Error() string {
	if p.Call == "" {
		return fmt.Sprintf("pfor: panic: %v", p.Value)
	}
	return fmt.Sprintf("pfor: panic in %s: %v", p.Call, p.Value)
}

// Unwrap returns the panic value if it is an error, else nil.
func (p *PanicError) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// wrapPanic wraps a value recovered from a function given to call,
// capturing the current stack: called in the deferred function that
// recovered, it still shows the panic site. A *PanicError is returned as it
// is, named call if it has no name yet: a stolen half of Worker.Join or
// Both, which run inside another call, is wrapped with no name by its thief
// and named by that call.
func wrapPanic(call string, r any) *PanicError {
	if pe, ok := r.(*PanicError); ok {
		if pe.Call == "" {
			pe.Call = call
		}
		return pe
	}
	return &PanicError{Value: r, Stack: debug.Stack(), Call: call}
}

// guard calls f, which calls functions given to call on the caller's
// goroutine, and re-raises a panic in f as wrapPanic does.
func guard(call string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			panic(wrapPanic(call, r))
		}
	}()
	f()
}
