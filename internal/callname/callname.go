// Package callname lets stealkit's packages built on pfor name their
// operations in the *pfor.PanicError that a panic of a user function
// becomes: plinq's operations, which run on pfor's loops, are named "plinq
// ..." rather than after the loop.
package callname

// Option returns a pfor.Option that sets the name a call reports in
// PanicError.Call and in its messages. pfor sets it when it is
// initialized; its result has type pfor.Option, which this package cannot
// name without importing pfor.
var Option func(name string) any
