package plinq

// A Group is the elements of a query that share a key, in query order.
type Group[K comparable, T any] struct {
	Key   K   // the key its elements share
	Items []T // the elements, in query order
}

// GroupBy returns the query of q's elements grouped by key(x), compared
// with ==: one Group per distinct key, in the order in which the keys first
// appear in q, each holding its elements in query order; the same groups
// in every run, whatever the workers and the partitioner. key is called
// once per element, concurrently from several goroutines. The grouping
// takes O(n) time and memory for n elements. Groups' Items share
// allocations, each group's capped, so appending to one copies it. A NaN
// key, unequal to itself, makes a group of its own per element, as in a
// map. GroupBy panics if key is nil.
func GroupBy[T any, K comparable](q Query[T], key func(T) K) Query[Group[K, T]] {
	mustFunc("GroupBy", "key", key == nil)
	return derive(q, func(x *exec) flow[Group[K, T]] {
		// The keys are numbered per block in parallel and merged in block
		// order (keyindex.go), then the elements placed group by group. A
		// flow that yields at most one element per index and is not a
		// slice is grouped as it runs (groupFlow), the others collected
		// first (for free if a slice).
		var ix *keyIndex[K]
		var out groupParts[T]
		var start []int
		if f := q.flow(x); !f.isSlice && (f.indexed || f.filter != nil) {
			ix, out, start = groupFlow(x, f, key)
		} else {
			items := collect(x, f, true)
			ix = indexKeys(x, items, key)
			all, s := arrange(x, ix, items)
			out, start = oneGroupPart(all), s
		}
		return ownedFlow(groupsOf(ix.keys, start, out))
	})
}

// ToMap runs q and returns the map of key(x) to value(x) for its elements
// x. When several elements have the same key, the last in query order wins,
// as in a sequential loop, in every run. key and value are called
// concurrently from several goroutines, key once per element and value at
// most once (it may be skipped for an element whose value a later element
// overrides). ToMap takes O(n) time and O(k) memory for k distinct keys.
// ToMap panics if key or value is nil.
func ToMap[T any, K comparable, V any](q Query[T], key func(T) K, value func(T) V) (m map[K]V, err error) {
	mustFunc("ToMap", "key", key == nil)
	mustFunc("ToMap", "value", value == nil)
	defer catch(&err)
	x := newExec(q.set)
	f := q.flow(x)
	// Each worker fills a map of its own, remembering for each key the
	// chunk its value came from, and the maps are merged at the end: a
	// later chunk's value wins.
	type entry struct {
		v  V
		lo int // the chunk the value came from (its first block): a later chunk's value wins
	}
	type state struct {
		m   map[K]entry
		run func(lo, hi int) bool
	}
	var states []*state
	blockChunks(x, f.n,
		func(w *worker) *state {
			s := &state{m: make(map[K]entry)}
			s.run = f.open(w, func(b []T) bool {
				for _, v := range b {
					k := key(v)
					if e, ok := s.m[k]; !ok || e.lo <= w.lo { // <=: later in the same chunk
						s.m[k] = entry{value(v), w.lo}
					}
				}
				return true
			})
			return s
		},
		func(s *state, lo, hi int) bool { s.run(lo, hi); return true },
		func(s *state) { states = append(states, s) })
	var merged map[K]entry
	for _, s := range states {
		if merged == nil {
			merged = s.m
			continue
		}
		for k, e := range s.m {
			if old, ok := merged[k]; !ok || old.lo < e.lo {
				merged[k] = e
			}
		}
	}
	out := make(map[K]V, len(merged))
	for k, e := range merged {
		out[k] = e.v
	}
	return out, nil
}
