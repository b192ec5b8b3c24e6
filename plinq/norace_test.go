//go:build !race

package plinq_test

const raceEnabled = false
