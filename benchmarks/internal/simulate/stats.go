package simulate

import (
	"math"
	"slices"
)

// median returns the middle value of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// lowerMedian returns the median of xs, the lower of the two middle values for an even count;
// xs is not empty and is not modified.
func lowerMedian(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// mean returns the mean of the positive values of xs, or 0 if there is none (no item has a
// cost: the unit does not matter).
func mean(xs []float64) float64 {
	sum, m := 0.0, 0
	for _, x := range xs {
		if x > 0 {
			sum += x
			m++
		}
	}
	if m == 0 {
		return 0
	}
	return sum / float64(m)
}

// middle returns the median of xs, not empty, as the runner takes it: the mean of the two
// middle values of an even count. xs is not modified.
func middle(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// medianStdErr estimates the standard error of the median of xs as for a normal sample,
// 1.2533 σ / √n, with σ estimated robustly as 1.4826 times the median absolute deviation (one
// repetition far off moves it little). It returns 0 for fewer than 3 values: their spread
// says nothing. xs is not modified.
func medianStdErr(xs []float64) float64 {
	if len(xs) < 3 {
		return 0
	}
	m := middle(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	return 1.2533 * 1.4826 * middle(dev) / math.Sqrt(float64(len(xs)))
}

// excessOver returns how far figures, trials of a cost that includes base, lie above base: the
// lower median less base, if at least three quarters of the figures exceed base (a sign test:
// with six trials of noise alone, five or more on one side come up 11% of the time, 21 or more
// of 30 trials 2%), and 0 otherwise or without figures. The restart (base: the take its
// chunks include) and the call of the body (base: nothing) count this way.
func excessOver(figures []float64, base float64) float64 {
	above := 0
	for _, f := range figures {
		if f > base {
			above++
		}
	}
	if len(figures) == 0 || 4*above < 3*len(figures) {
		return 0
	}
	return lowerMedian(figures) - base
}
