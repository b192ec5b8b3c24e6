package simulate

import "github.com/stealkit/stealkit/benchmarks/internal/impls"

// Precision is the largest standard error that the median of a check's repetition errors may
// have, as a fraction of the study's tolerance, before the validation measures the check's
// cell again and pools the repetitions (see Study.Remeasure): a quarter, so that a model that
// is right within a few percent passes a tolerance of four standard errors or more.
//
// Why: on a shared virtual machine most checks' repetitions agree within a few percent, but
// those of a memory-bound loop with many chunks scatter widely. The repetitions of
// saxpy/dynamic (65,536 chunks of 64 items, one call a repetition) lie tens of percent on
// either side of their predictions while the trials on either side agree, and consecutive
// 2-worker calls of it, only the reset of its output between them, scatter as widely, each
// correlated with the one before. The median of five such repetitions has a standard error of
// a sizeable fraction of the tolerance, at times more than the tolerance itself: it is not
// precise enough to hold against the tolerance, and a check that missed on it missed on a
// draw.
const Precision = 0.25

// Pooled is how many measurements of a cell one attempt of a check pools at most.
const Pooled = 4

// pooled returns the check of reps, a measurement of a cell of k workers with partitioner p,
// and while the median of its repetition errors is uncertain (see uncertain), the check of
// reps pooled with further measurements that again makes, Pooled measurements in all at most.
// It reports false if reps lacks what a check needs; a further measurement that does not run,
// or lacks what a check needs, ends the pooling.
func (s *Study) pooled(w Workload, c Costs, p impls.Partitioner, k int, reps Repetitions, again func() (Repetitions, bool)) (Check, bool) {
	chk, ok := w.check(c, p, k, reps)
	if !ok {
		return Check{}, false
	}
	for n := 1; n < Pooled && s.uncertain(chk.RepetitionErrors); n++ {
		more, ok := again()
		if !ok {
			break
		}
		all := reps.join(more)
		next, ok := w.check(c, p, k, all)
		if !ok {
			break
		}
		reps, chk = all, next
		chk.Pooled = n + 1
	}
	return chk, true
}

// uncertain reports whether the median of errs, repetition errors, has a standard error above
// Precision of the tolerance. With fewer than 3 repetitions their spread is unknown, and it
// reports false.
func (s *Study) uncertain(errs []float64) bool {
	return len(errs) >= 3 && medianStdErr(errs) > Precision*s.Tolerance
}

// join returns the repetitions of r followed by those of more, two measurements of one cell.
// What only one of them has (trials after, calls, call, piece and transfer trials) is left out. The
// load of others is the mean of the two, weighted by their repetitions, or the one that is
// known.
func (r Repetitions) join(more Repetitions) Repetitions {
	all := Repetitions{
		TimesNs:          append(append([]float64(nil), r.TimesNs...), more.TimesNs...),
		UnitNs:           append(append([][]float64(nil), r.UnitNs...), more.UnitNs...),
		AfterUnitNs:      both(r.AfterUnitNs, more.AfterUnitNs),
		CallsBefore:      both(r.CallsBefore, more.CallsBefore),
		CallsAfter:       both(r.CallsAfter, more.CallsAfter),
		CallNsBefore:     both(r.CallNsBefore, more.CallNsBefore),
		CallNsAfter:      both(r.CallNsAfter, more.CallNsAfter),
		PieceNsBefore:    both(r.PieceNsBefore, more.PieceNsBefore),
		PieceNsAfter:     both(r.PieceNsAfter, more.PieceNsAfter),
		TransferNsBefore: both(r.TransferNsBefore, more.TransferNsBefore),
		TransferNsAfter:  both(r.TransferNsAfter, more.TransferNsAfter),
		OtherLoad:        r.OtherLoad,
	}
	switch {
	case r.OtherLoad < 0:
		all.OtherLoad = more.OtherLoad
	case more.OtherLoad >= 0:
		n, m := float64(len(r.TimesNs)), float64(len(more.TimesNs))
		all.OtherLoad = (n*r.OtherLoad + m*more.OtherLoad) / (n + m)
	}
	return all
}

// both returns xs followed by ys, or nil if either is nil: a repetition of one has them, one
// of the other does not.
func both[T any](xs, ys []T) []T {
	if xs == nil || ys == nil {
		return nil
	}
	return append(append([]T(nil), xs...), ys...)
}
