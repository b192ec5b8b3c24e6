package sched

// A stepKind names one step of the sleep protocol that other goroutines can
// observe: an atomic operation, a critical section under Idle.mu (run as one
// step), or a channel operation. Before each, Idle and Parker call step,
// which does nothing unless a test has installed stepHook: the interleaving
// test runs real Idles and Parkers one step at a time under a deterministic
// scheduler.
type stepKind uint8

const (
	stepStartSearch stepKind = iota // state: add a searcher
	stepStopSearch                  // state: remove a searcher
	stepNotify                      // state: load
	stepAnnounce                    // mu: list the sleeper, state: searcher to sleeper
	stepArm                         // armed: store true
	stepWait                        // wake: receive (blocks without a token)
	stepDisarm                      // armed: store false
	stepLeave                       // mu: unlist the sleeper if still listed, state: sleeper to searcher
	stepWakeOne                     // mu: unlist the newest sleeper, state: sleeper to searcher
	stepToken                       // wake: send if there is room
	stepUnpark                      // armed: load
)

// stepHook is nil outside tests. Tests set it before starting the goroutines
// that use the Idles and Parkers under test and clear it after they have
// stopped.
var stepHook func(stepKind)

func step(k stepKind) {
	if stepHook != nil {
		stepHook(k)
	}
}
