package stealrange

// A step names one atomic operation of the protocol. Before each, Range calls
// its step method, which does nothing unless a test has installed stepHook: the stress
// tests use it to inject preemption between atomic steps, and the
// interleaving tests to run real Ranges under a deterministic scheduler.
type stepKind uint8

const (
	stepReserve    stepKind = iota // owner: store low = l+k
	stepTakeLoad                   // owner: load steal after reserving
	stepShrink                     // owner: CAS steal to a smaller steal range
	stepTakeCAS                    // owner: CAS steal to claim a batch reaching the steal range
	stepStealLoad                  // thief: load steal
	stepStealLow                   // thief: load low
	stepStealCAS                   // thief: CAS steal
	stepResetClose                 // owner: store low = MaxUint64
	stepResetSet                   // owner: store steal = carve(a, b)
	stepResetOpen                  // owner: store low = a
	stepGiveClose                  // owner: store low = MaxUint64
	stepGiveLoad                   // owner: load steal
	stepGiveCAS                    // owner: CAS steal to carve(from, end)
	stepGiveOpen                   // owner: store low = from
)

// stepHook is nil outside tests. Tests set it before starting the goroutines
// that use the Ranges under test and clear it after they have stopped. It
// gets the Range whose shared words the step accesses.
var stepHook func(*Range, stepKind)

func (r *Range) step(k stepKind) {
	if stepHook != nil {
		stepHook(r, k)
	}
}
