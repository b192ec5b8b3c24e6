package simulate

import "slices"

// TransferTrial times a cache line's transfer between cores (see pingPong) once, as
// CalibrateMachine does for Machine.TransferNs, and returns it in nanoseconds, so that a
// caller can make it next to each 2-worker repetition that it is checked against, as the
// trials of the unit (see Calibrator). It returns 0, and makes no trial, with one proc.
//
// Why next to it: on the project's AMD VM the transfer moves between two levels with the
// host's placement of the vCPUs, about 50 to 75 ns and about 235 to 275 ns, in states that
// last long enough for a trial just before a 2-worker pass and one just after it to agree
// (a correlation of 0.85 over 150 such pairs). It moves the loops that take from a shared
// cursor: over those 150 pairs, the time of a 2-worker dynamic pass over saxpy's data
// correlated with the transfer at 0.67, and ran 46 ms at the low level, 66 to 71 at the
// high one.
func (cal *Calibrator) TransferTrial() float64 {
	if len(cal.plans) < 2 {
		return 0
	}
	f := typical(pingPong)
	cal.transferTrials = append(cal.transferTrials, f)
	return f
}

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
