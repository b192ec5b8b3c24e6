package sched

// A stepKind names one step that other goroutines can observe, of the
// workers' sleep protocol (an atomic operation, a critical section under
// Idle.mu run as one step, or a channel operation), of a loop slot's sleep
// and wake (see runSlot and wakeSleeper) or of a loop caller's join (see
// finish and join). Before each, the code calls step, which does nothing
// unless a test has installed stepHook: the interleaving tests run real
// Idles, Parkers and job slots one step at a time under a deterministic
// scheduler.
type stepKind uint8

const (
	stepStartSearch stepKind = iota // state: add a searcher
	stepStopSearch                  // state: remove a searcher
	stepPause                       // state: remove a searcher, waking nobody (Yield)
	stepNotify                      // state: load
	stepAnnounce                    // mu: list the sleeper, state: searcher to sleeper
	stepArm                         // armed: store true
	stepWait                        // wake: receive (blocks without a token)
	stepDisarm                      // armed: store false
	stepLeave                       // mu: unlist the sleeper if still listed, state: sleeper to searcher
	stepWakeOne                     // mu: unlist the newest sleeper (WakeFor: of those below its floor), state: sleeper to searcher
	stepToken                       // wake: send if there is room
	stepUnpark                      // armed: load

	stepNext      // a slot calls Next on the run
	stepIdle      // a slot calls Idle on the run
	stepCount     // a slot counts itself in sleepers
	stepUncount   // a slot takes itself out of sleepers
	stepSleep     // a slot blocks until it takes a token
	stepWakeLoad  // wakeSleeper loads sleepers
	stepWakeToken // wakeSleeper adds a token and signals
	stepFinish    // a slot counts itself finished
	stepJoinLoad  // the caller's join loads finished
	stepJoinPark  // the caller's join CASes finished to add joinParked
	stepJoinBlock // the caller's join blocks until the token on wake
)

// stepHook is nil outside tests. Tests set it before starting the goroutines
// that use the Idles, Parkers or jobs under test and clear it after they have
// stopped.
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
