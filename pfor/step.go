package pfor

// A stepKind names one step of a slot's sleep and wake protocol (see
// runSlot and wakeSleeper) or of the caller's join (see finish and join)
// that another goroutine can observe. Before each, the
// slot calls step, which does nothing unless a test has installed stepHook:
// the interleaving tests run real slots one step at a time under a
// deterministic scheduler.
type stepKind uint8

const (
	stepNext      stepKind = iota + 1 // a slot calls Next on the run
	stepIdle                          // a slot calls Idle on the run
	stepCount                         // a slot counts itself in sleepers
	stepUncount                       // a slot takes itself out of sleepers
	stepSleep                         // a slot blocks until it takes a token
	stepWakeLoad                      // wakeSleeper loads sleepers
	stepWakeToken                     // wakeSleeper adds a token and signals
	stepFinish                        // a slot counts itself finished
	stepJoinLoad                      // the caller's join loads finished
	stepJoinPark                      // the caller's join CASes finished to add joinParked
	stepJoinBlock                     // the caller's join blocks until the token on wake
)

// stepHook is nil outside tests. Tests set it before starting the goroutines
// that drive the slots under test and clear it after they have stopped.
var stepHook func(stepKind)

func step(k stepKind) {
	if stepHook != nil {
		stepHook(k)
	}
}
