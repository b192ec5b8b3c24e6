//go:build !race

package pfor_test

// groupRace reports whether the race detector is on: the task tests then
// use smaller inputs.
const groupRace = false
