package plinq

import (
	"math"
	"slices"
	"testing"
)

// -0.0 and +0.0 are one key by ==, and AggregateBy's pair shows the key of
// the key's first element in query order, as GroupBy's and CountBy's do.

// TestKeyPartsKeepFirstBlocksKey: a worker may fold a later block of a key
// before an earlier one; the key it keeps is the earlier block's.
func TestKeyPartsKeepFirstBlocksKey(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tb := keyTable[float64, int]{parts: []keyParts[float64, int]{{key: 0, block: -1, first: -1}}}
	p := &tb.parts[0]
	tb.start(0, 0, 3, 0, 1) // block 3 first, whose element has +0
	tb.start(0, negZero, 1, 0, 1)
	if !math.Signbit(p.key) || p.first != 1 {
		t.Errorf("after blocks 3 (+0) and 1 (-0): key %v (sign bit %v), first %d; want -0 of block 1", p.key, math.Signbit(p.key), p.first)
	}
	tb.start(0, 0, 2, 0, 1) // a later block does not change it
	if !math.Signbit(p.key) || p.first != 1 {
		t.Errorf("after block 2 (+0): key %v (sign bit %v), first %d; want -0 of block 1", p.key, math.Signbit(p.key), p.first)
	}
}

// TestCombineByKeyKeepsFirstBlocksKey: of two workers' parts of one key,
// the pair takes the key of the part with the earlier first block,
// whichever worker comes first.
func TestCombineByKeyKeepsFirstBlocksKey(t *testing.T) {
	negZero := math.Copysign(0, -1)
	states := []*keyTable[float64, int]{
		{parts: []keyParts[float64, int]{{key: 0, block: -1, first: 3}}, kept: []keptValue[int]{{0, 3, 1}}},
		{parts: []keyParts[float64, int]{{key: negZero, block: -1, first: 0}}, kept: []keptValue[int]{{0, 0, 1}}},
	}
	out := combineByKey(states, func(t *keyTable[float64, int]) *keyTable[float64, int] { return t }, func(a, b int) int { return a + b })
	if len(out) != 1 || !math.Signbit(out[0].Key) || out[0].Value != 2 {
		t.Errorf("combineByKey = %v; want one pair {-0 2}, with the key of block 0", out)
	}
}

// TestCombineByKeyPartOrder: each key's values, kept by several workers in
// any order, are combined in block order, and the keys come out by first
// block and rank; combine (concatenation) is not commutative.
func TestCombineByKeyPartOrder(t *testing.T) {
	kv := func(part, block int32, v string) keptValue[string] { return keptValue[string]{part, block, v} }
	states := []*keyTable[string, string]{
		{parts: []keyParts[string, string]{{key: "b", block: -1, first: 1, rank: 0}, {key: "a", block: -1, first: 1, rank: 1}},
			kept: []keptValue[string]{kv(0, 4, "b4"), kv(1, 4, "a4"), kv(0, 1, "b1"), kv(1, 1, "a1")}},
		{parts: []keyParts[string, string]{{key: "a", block: -1, first: 2, rank: 0}, {key: "c", block: -1, first: 3, rank: 0}},
			kept: []keptValue[string]{kv(0, 2, "a2"), kv(1, 3, "c3"), kv(0, 3, "a3"), kv(1, 5, "c5")}},
	}
	out := combineByKey(states, func(t *keyTable[string, string]) *keyTable[string, string] { return t }, func(a, b string) string { return a + b })
	want := []KeyValue[string, string]{{"b", "b1b4"}, {"a", "a1a2a3a4"}, {"c", "c3c5"}}
	if !slices.Equal(out, want) {
		t.Errorf("combineByKey = %v; want %v", out, want)
	}
}
