package plinq

// countBy is CountBy's run: each worker counts the keys of the blocks it
// takes into a counter of its own, and the counters are added up on the
// calling goroutine (a map operation per distinct key per worker, reusing
// the largest map).
func countBy[T any, K comparable](x *exec, f flow[T], key func(T) K) map[K]int {
	bits := keyBits[K]()
	type state struct {
		counter[K]
		keyBatch[T, K]
		run func(lo, hi int) bool
	}
	var states []*state
	blockChunks(x, f.n,
		func(w *worker) *state {
			s := &state{counter: counter[K]{dense: startDense(bits != nil)}}
			if bits == nil {
				s.m = make(map[K]int)
			}
			s.run = f.open(w, func(b []T) bool {
				keys, us := s.keysOf(b, key, bits)
				for j, u := range us {
					if i := s.dense.find(u); i >= 0 {
						s.counts[i]++
					} else {
						s.add(keys[j], u)
					}
				}
				return true
			})
			return s
		},
		func(s *state, lo, hi int) bool { s.run(lo, hi); return true },
		func(s *state) { states = append(states, s) })
	big := -1 // the state with the largest map, which becomes the total
	for i, s := range states {
		if s.m != nil && (big < 0 || len(s.m) > len(states[big].m)) {
			big = i
		}
	}
	var total map[K]int
	if big >= 0 {
		total = states[big].m
	} else {
		total = make(map[K]int)
	}
	for i, s := range states {
		if i != big {
			for k, c := range s.m {
				total[k] += c
			}
		}
		for i, k := range s.counter.keys {
			total[k] += s.counts[i]
		}
	}
	return total
}

// A counter is one worker's counts of keys: by a denseIndex while it is on,
// by a map after that (or from the start if K is not an integer kind).
type counter[K comparable] struct {
	dense  denseIndex
	keys   []K   // the keys dense numbers
	counts []int // counts[i]: the count of keys[i]
	m      map[K]int
}

// add counts k, whose bits are u; the caller has found that k is not in
// dense.
func (c *counter[K]) add(k K, u uint64) {
	if c.dense.on {
		if c.dense.set(u, int32(len(c.keys))) {
			c.keys, c.counts = append(c.keys, k), append(c.counts, 1)
			return
		}
		c.m = make(map[K]int, 2*len(c.keys)) // dense is off from now on
		for i, k := range c.keys {
			c.m[k] = c.counts[i]
		}
		c.keys, c.counts = nil, nil
	}
	c.m[k]++
}
