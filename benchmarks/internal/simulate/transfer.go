package simulate

import (
	"slices"
	"time"
)

// TransferTrial times a cache line's transfer between cores (see pingPong) once, as
// CalibrateMachine does for Machine.TransferNs, and returns it in nanoseconds, so that a
// caller can make it next to each 2-worker repetition that it is checked against, as the
// trials of the unit (see Calibrator). It returns 0, and makes no trial, with one proc.
//
// Why next to it: on a shared virtual machine the transfer moves between two levels, the
// higher several times the lower (we suppose as the host places the vCPUs), in states that
// mostly last long enough for a trial just before a 2-worker pass and one just after it to
// agree. It moves the loops that take from a shared cursor: the time of a 2-worker dynamic
// pass over saxpy's data follows the transfer, and such a pass made at the higher level is
// clearly slower than one made at the lower.
func (cal *Calibrator) TransferTrial() float64 {
	if len(cal.plans) < 2 {
		return 0
	}
	f := transferFigure(func() (time.Duration, float64) { return pingPongWithin(transferGiveUp) }, cal.transferTrials)
	cal.transferTrials = append(cal.transferTrials, f)
	return f
}

// transferFigure returns the median time per step of the ping-pongs that pingPong made and that
// completed their pingPongSteps steps: at least 15 of them and 3·minTrial in all, as typical
// takes them, or as many as completed in transferTries (see typicalCounting). A ping-pong
// that gave up timed how long the other goroutine did not run, not a transfer: in one run,
// most of a trial's ping-pongs gave up after a few steps, the trial read thousands of times a
// usual transfer, and the prediction of the repetition made with it came out hundreds of
// times the repetition's time. If none completed, transferFigure returns the lower median of
// the earlier figures, or, if there are none, the median of the ping-pongs that gave up, as
// before: an upper bound, on a machine whose other core stayed busy for the whole trial.
func transferFigure(pingPong func() (time.Duration, float64), earlier []float64) float64 {
	completed := func(steps float64) bool { return steps >= pingPongSteps }
	per, gaveUp := typicalCounting(pingPong, completed, transferTries)
	switch {
	case len(per) > 0:
		slices.Sort(per)
		return per[len(per)/2]
	case len(earlier) > 0:
		return lowerMedian(earlier)
	}
	return lowerMedian(gaveUp)
}

// transferTries is how many ping-pongs a transfer trial makes at most: 45 that give up after
// transferGiveUp take 0.225 s.
const transferTries = 45

// transferGiveUp is how long a ping-pong of a transfer trial waits for a goroutine that does
// not run: a run makes about 900 trials of at least 15 ping-pongs each, and on a machine
// whose other core is busy (the module's other test binaries, in CI) pingPong's second each
// made a trial last 15 s. Undisturbed, a ping-pong ends well within transferGiveUp.
const transferGiveUp = 5 * time.Millisecond

// TransferTrials returns the figure of every transfer trial so far, in order: those a caller
// made and those made after each restart trial.
func (cal *Calibrator) TransferTrials() []float64 { return slices.Clone(cal.transferTrials) }

// TransferNs returns the median of the transfer trials so far (the lower middle one of an
// even count), and reports whether there was one.
func (cal *Calibrator) TransferNs() (float64, bool) {
	if len(cal.transferTrials) == 0 {
		return 0, false
	}
	return lowerMedian(cal.transferTrials), true
}
