package plinq

// Counting many distinct keys (CountBy). A worker counts keys in a map of
// its own while the map stays small; past partitionAfter keys it counts
// them partitioned by hash instead (a partCounter). Once every worker has
// stopped, each partition's counts are merged across the workers in
// parallel, which tells how many distinct keys there are, and the result
// map, sized for all of them, is filled on the calling goroutine: a Go map
// can be filled by one goroutine only, so that fill is all the sequential
// work left. Merging the workers' maps into one on the calling goroutine
// instead cost a map operation per key per worker, into a map that kept
// growing.
//
// A partitioning worker hashes each key and appends it to its partition's
// buffer; a full buffer is counted into the partition's table at once.
// Counting keys as they come, into tables that together outgrow the
// caches, missed the cache on nearly every key; a buffer's keys all go to
// one partition's table, a countParts-th of the worker's counts, which the
// cache holds while they are counted.

// partitionAfter is the most keys a worker counts in its map before it
// partitions; countParts is the number of partitions, a power of two
// greater than sampleParts; partBuf is the keys a partition's buffer
// holds. Variables so that tests can shrink them.
var (
	partitionAfter = 1 << 16
	countParts     = 256
	partBuf        = 256
)

// intHash is a hash of the keys of an integer kind: their bits, mixed.
func intHash[K comparable](k K) uint64 { return mix(bitsOfKey(k, intShape{})) }

// A hashedKey is a key and its hash.
type hashedKey[K comparable] struct {
	h uint64
	k K
}

// A partCounter is one worker's counts of keys partitioned by hash: the
// keys whose hash is p modulo countParts wait in buf[p] and are counted in
// tab[p]. Only the goroutine running the worker touches it, until the
// workers have stopped.
type partCounter[K comparable] struct {
	hash func(K) uint64
	buf  [][]hashedKey[K]
	tab  []countTable[K]
}

func newPartCounter[K comparable](hash func(K) uint64) *partCounter[K] {
	c := &partCounter[K]{hash: hash, buf: make([][]hashedKey[K], countParts), tab: make([]countTable[K], countParts)}
	for p := range c.buf {
		c.buf[p] = make([]hashedKey[K], 0, partBuf)
	}
	return c
}

// add counts k once.
func (c *partCounter[K]) add(k K) {
	h := c.hash(k)
	p := h & uint64(countParts-1)
	b := append(c.buf[p], hashedKey[K]{h, k})
	if len(b) == partBuf {
		c.flush(p, b)
		b = b[:0]
	}
	c.buf[p] = b
}

// flush counts the keys b of partition p.
func (c *partCounter[K]) flush(p uint64, b []hashedKey[K]) {
	t := &c.tab[p]
	for _, e := range b {
		t.add(e.h, e.k, 1, c.hash)
	}
}

// addMap adds the counts of m.
func (c *partCounter[K]) addMap(m map[K]int) {
	for k, n := range m {
		h := c.hash(k)
		c.tab[h&uint64(countParts-1)].add(h, k, n, c.hash)
	}
}

// sampleParts is the number of partitions that mergeCounts merges first,
// to estimate how many distinct keys there are.
const sampleParts = 4

// mergeCounts returns the map of the counts of cs, which share one hash,
// filled on the calling goroutine and sized for every key. If the sampled
// partitions show that the workers' keys seldom repeat across workers, the
// workers' tables fill the map as they are, which costs a map operation
// per key of each worker; else each partition's tables are first merged
// across cs in parallel, so that the fill costs one map operation per
// distinct key.
func mergeCounts[K comparable](x *exec, cs []*partCounter[K]) map[K]int {
	hash := cs[0].hash
	merge := func(p int) *countTable[K] {
		var big *countTable[K] // the largest table, into which the others merge
		for _, c := range cs {
			if t := &c.tab[p]; big == nil || t.n > big.n {
				big = t
			}
		}
		for _, c := range cs {
			if t := &c.tab[p]; t != big {
				big.merge(t, hash)
				*t = countTable[K]{}
			}
		}
		return big
	}
	each(x, countParts, func(p0, p1 int) {
		for p := p0; p < p1; p++ {
			for _, c := range cs {
				c.flush(uint64(p), c.buf[p])
				c.buf[p] = nil
			}
		}
	})
	held, sampled := 0, 0 // the keys of every table, and of the sampled partitions' tables
	for _, c := range cs {
		for p := range c.tab {
			held += c.tab[p].n
			if p < sampleParts {
				sampled += c.tab[p].n
			}
		}
	}
	var merged [sampleParts]*countTable[K]
	each(x, sampleParts, func(p0, p1 int) {
		for p := p0; p < p1; p++ {
			merged[p] = merge(p)
		}
	})
	distinct := 0
	for _, t := range merged {
		distinct += t.n
	}
	if sampled == 0 {
		sampled, distinct = 1, 1
	}
	estimate := int(float64(held) * float64(distinct) / float64(sampled))
	var tabs []*countTable[K]
	if 10*estimate >= 9*held { // at most a tenth of the keys repeat across workers
		for _, c := range cs {
			for p := sampleParts; p < countParts; p++ {
				tabs = append(tabs, &c.tab[p])
			}
		}
		estimate += estimate / 32
	} else {
		tabs = make([]*countTable[K], countParts-sampleParts)
		each(x, len(tabs), func(p0, p1 int) {
			for p := p0; p < p1; p++ {
				tabs[p] = merge(sampleParts + p)
			}
		})
		estimate = 0
		for _, t := range tabs {
			estimate += t.n
		}
	}
	for _, t := range merged {
		estimate += t.n
	}
	total := make(map[K]int, estimate)
	for _, t := range append(merged[:], tabs...) {
		for _, s := range t.slots {
			if s.c != 0 {
				total[s.k] += s.c
			}
		}
	}
	return total
}
