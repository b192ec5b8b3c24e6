package plinq

import (
	"math"
	"testing"
)

// -0.0 and +0.0 are one key by ==, and AggregateBy's pair shows the key of
// the key's first element in query order, as GroupBy's and CountBy's do.

// TestKeyPartsKeepFirstBlocksKey: a worker may fold a later block of a key
// before an earlier one; the key it keeps is the earlier block's.
func TestKeyPartsKeepFirstBlocksKey(t *testing.T) {
	negZero := math.Copysign(0, -1)
	p := keyParts[float64, int]{key: 0, block: -1, first: -1}
	p.start(0, 3, 0, 1) // block 3 first, whose element has +0
	p.start(negZero, 1, 0, 1)
	if !math.Signbit(p.key) || p.first != 1 {
		t.Errorf("after blocks 3 (+0) and 1 (-0): key %v (sign bit %v), first %d; want -0 of block 1", p.key, math.Signbit(p.key), p.first)
	}
	p.start(0, 2, 0, 1) // a later block does not change it
	if !math.Signbit(p.key) || p.first != 1 {
		t.Errorf("after block 2 (+0): key %v (sign bit %v), first %d; want -0 of block 1", p.key, math.Signbit(p.key), p.first)
	}
}

// TestCombineByKeyKeepsFirstBlocksKey: of two workers' parts of one key,
// the pair takes the key of the part with the earlier first block,
// whichever worker comes first.
func TestCombineByKeyKeepsFirstBlocksKey(t *testing.T) {
	negZero := math.Copysign(0, -1)
	type state struct{ parts []keyParts[float64, int] }
	states := []state{
		{[]keyParts[float64, int]{{key: 0, block: -1, first: 3, values: []blockValue[int]{{3, 1}}}}},
		{[]keyParts[float64, int]{{key: negZero, block: -1, first: 0, values: []blockValue[int]{{0, 1}}}}},
	}
	out := combineByKey(states, func(s state) []keyParts[float64, int] { return s.parts }, func(a, b int) int { return a + b })
	if len(out) != 1 || !math.Signbit(out[0].Key) || out[0].Value != 2 {
		t.Errorf("combineByKey = %v; want one pair {-0 2}, with the key of block 0", out)
	}
}
