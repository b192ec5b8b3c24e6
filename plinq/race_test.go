//go:build race

package plinq_test

// raceEnabled: the race detector changes allocation counts.
const raceEnabled = true
