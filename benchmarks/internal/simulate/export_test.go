package simulate

// SamplePass exposes the calibration's sampling to the tests: goroutine g's chunks in pass p
// of the plan for n items and k goroutines.
func SamplePass(n, k, p, g int) [][2]int { return newSamplePlan(n, k).pass(p, g) }

// RestartCost exposes what the simulation charges for a restart of a range of n items.
func RestartCost(restartNs float64, n int) float64 { return restartCost(restartNs, n) }
