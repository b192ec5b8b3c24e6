package plinq

import "slices"

// groupParts are the elements of a grouping laid out group by group, in
// group order, in parts allocated in parallel: part p holds the elements
// [at[p], at[p+1]) of that order, whole groups only. Allocating the result
// in one piece would zero all of it on one goroutine (Go zeroes what it
// allocates), while the workers wait; in parts, the workers zero it
// together.
type groupParts[T any] struct {
	parts [][]T
	at    []int // at[p]: the first element of part p; at[len(parts)] is the total
}

// partLen is the fewest elements a part of groupParts holds, but the last:
// parts of that length cost little more to allocate one by one than
// together. A variable so that tests can shrink it.
var partLen = 1 << 16

// allocGroups returns zeroed groupParts for the groups that start gives
// (group g is [start[g], start[g+1]) of the order, start[0] == 0), the
// parts allocated in parallel.
func allocGroups[T any](x *exec, start []int) groupParts[T] {
	total := start[len(start)-1]
	at := []int{0}
	for _, s := range start[1:] { // a part ends at the first group end at least partLen after its start
		if s-at[len(at)-1] >= partLen || s == total && s > at[len(at)-1] {
			at = append(at, s)
		}
	}
	parts := make([][]T, len(at)-1)
	each(x, len(parts), func(p0, p1 int) {
		for p := p0; p < p1; p++ {
			parts[p] = make([]T, at[p+1]-at[p])
		}
	})
	return groupParts[T]{parts, at}
}

// oneGroupPart returns the groupParts of all, a single allocation.
func oneGroupPart[T any](all []T) groupParts[T] {
	return groupParts[T]{[][]T{all}, []int{0, len(all)}}
}

// runs sets runs[l] to the elements [dest[l], dest[l]+count[l]) of the
// order, which lie in one part, for each l, and returns runs, grown to
// len(dest) if it must. Every count is positive (a block's local key has
// an element), so every run starts inside a part.
func (o groupParts[T]) runs(runs [][]T, dest, count []int) [][]T {
	runs = slices.Grow(runs[:0], len(dest))[:len(dest)]
	for l, d := range dest {
		p, found := slices.BinarySearch(o.at, d)
		if !found { // d is inside part p-1
			p--
		}
		lo := d - o.at[p]
		runs[l] = o.parts[p][lo : lo+count[l]]
	}
	return runs
}

// groupsOf returns the groups of keys, group g holding the elements
// [start[g], start[g+1]) of the order, each capped.
func groupsOf[K comparable, T any](keys []K, start []int, o groupParts[T]) []Group[K, T] {
	groups := make([]Group[K, T], len(keys))
	p := 0
	for g, k := range keys {
		for start[g] >= o.at[p+1] { // groups are not empty: start[g] < the total
			p++
		}
		lo, hi := start[g]-o.at[p], start[g+1]-o.at[p]
		groups[g] = Group[K, T]{k, o.parts[p][lo:hi:hi]}
	}
	return groups
}
