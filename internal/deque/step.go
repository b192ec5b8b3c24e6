package deque

// A stepKind names one atomic operation of the protocol. Before each, the
// Deque calls step, which does nothing unless a test has installed stepHook:
// the stress tests use it to inject preemption between atomic steps, and the
// interleaving test to run real Deques under a deterministic scheduler.
type stepKind uint8

const (
	stepPushTop     stepKind = iota // owner: load top
	stepPushGrow                    // owner: store array (growing)
	stepPushSlot                    // owner: store the slot
	stepPushBottom                  // owner: store bottom = b+1
	stepPopBottom                   // owner: store bottom = b-1
	stepPopTop                      // owner: load top
	stepPopCAS                      // owner: CAS top for the last element
	stepPopRestore                  // owner: store bottom back
	stepStealTop                    // thief: load top
	stepStealBottom                 // thief: load bottom
	stepStealArray                  // thief: load array
	stepStealSlot                   // thief: load the slot
	stepStealCAS                    // thief: CAS top
)

// stepHook is nil outside tests. Tests set it before starting the goroutines
// that use the Deques under test and clear it after they have stopped.
var stepHook func(stepKind)

// step is go:norace: under the race detector an instrumented load of
// stepHook on every step of the protocol costs several times the call
// that go:norace makes of step instead (it is not inlined then), and
// stepHook changes only while no goroutine that steps runs.
//
//go:norace
func step(k stepKind) {
	if stepHook != nil {
		stepHook(k)
	}
}
