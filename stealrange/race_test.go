//go:build race

package stealrange

const raceEnabled = true
