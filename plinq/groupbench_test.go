package plinq_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// An order is a 16-byte row of the grouping benchmarks' table. It has four
// fields, the most that cmd/compile keeps in registers when a struct is
// passed by value: with a fifth (even a blank one), every call of the
// query's functions copied the order through the stack, and the loops that
// call them measured that copy more than the calls.
type order struct {
	Price  int64
	Qty    int32
	Region uint16 // in [0, regions)
	Status uint8  // 0: cancelled
}

// A regionTotal is the grouped result for one region.
type regionTotal struct{ Orders, Revenue int64 }

const regions = 16

// orders2M: 2M orders over 16 regions, about 75% of them selected.
var orders2M = sync.OnceValue(func() []order {
	r := rand.New(rand.NewPCG(4, 4))
	s := make([]order, 2_000_000)
	for i := range s {
		s[i] = order{Price: 100 + r.Int64N(100_000), Qty: 1 + r.Int32N(12), Region: uint16(r.IntN(regions)), Status: uint8(r.IntN(4))}
	}
	return s
})

// The grouping query's functions, in variables so that every loop calls
// them through a func value, as plinq does.
var (
	selOrder    = func(o order) bool { return o.Status != 0 }
	regionOf    = func(o order) uint16 { return o.Region }
	addOrder    = func(t regionTotal, o order) regionTotal { t.Orders++; t.Revenue += int64(o.Qty) * o.Price; return t }
	addTotals   = func(a, b regionTotal) regionTotal { a.Orders += b.Orders; a.Revenue += b.Revenue; return a }
	sumOfTotals = func(t *[regions]regionTotal) int64 {
		var s int64
		for _, r := range t {
			s += r.Orders ^ r.Revenue
		}
		return s
	}
)

// BenchmarkGroupByOrders: SELECT region, COUNT(*), SUM(qty*price) over 2M
// orders WHERE status <> 0 GROUP BY region, and the COUNT(*) alone. The
// sequential loops are written inline, as a Go user writes them; the
// chunks-dense loops are the floor for any generic library: a dense [16]
// aggregation over pfor.Chunks calling the filter, the key and the fold
// (the count: the filter and the key) through func values, the calls plinq
// cannot do without.
func BenchmarkGroupByOrders(b *testing.B) { runImpls(b, ordersImpls(orders2M())) }

func ordersImpls(in []order) []impl {
	return []impl{
		{"sequential-map", func() int64 {
			m := map[uint16]regionTotal{}
			for i := range in {
				o := &in[i]
				if o.Status != 0 {
					t := m[o.Region]
					t.Orders++
					t.Revenue += int64(o.Qty) * o.Price
					m[o.Region] = t
				}
			}
			var t [regions]regionTotal
			for k, v := range m {
				t[k] = v
			}
			return sumOfTotals(&t)
		}},
		{"sequential-array", func() int64 {
			var t [regions]regionTotal
			for i := range in {
				o := &in[i]
				if o.Status != 0 {
					r := &t[o.Region%regions]
					r.Orders++
					r.Revenue += int64(o.Qty) * o.Price
				}
			}
			return sumOfTotals(&t)
		}},
		{"chunks-dense", func() int64 {
			var mu sync.Mutex
			var t [regions]regionTotal
			pfor.Chunks(0, len(in), func(lo, hi int) {
				var p [regions]regionTotal
				for _, o := range in[lo:hi] {
					if selOrder(o) {
						r := &p[regionOf(o)%regions]
						*r = addOrder(*r, o)
					}
				}
				mu.Lock()
				for i := range t {
					t[i] = addTotals(t[i], p[i])
				}
				mu.Unlock()
			})
			return sumOfTotals(&t)
		}},
		{"plinq-groupby", func() int64 {
			sel := plinq.From(in).Where(selOrder)
			type keyed struct {
				region uint16
				total  regionTotal
			}
			sums := must(plinq.Select(plinq.GroupBy(sel, regionOf), func(g plinq.Group[uint16, order]) keyed {
				k := keyed{region: g.Key, total: regionTotal{Orders: int64(len(g.Items))}}
				for _, o := range g.Items {
					k.total.Revenue += int64(o.Qty) * o.Price
				}
				return k
			}).ToSlice())
			var t [regions]regionTotal
			for _, s := range sums {
				t[s.region] = s.total
			}
			return sumOfTotals(&t)
		}},
		{"plinq-aggregateby", func() int64 {
			var t [regions]regionTotal
			for _, kv := range must(plinq.AggregateBy(plinq.From(in).Where(selOrder), regionOf, regionTotal{}, addOrder, addTotals).ToSlice()) {
				t[kv.Key] = kv.Value
			}
			return sumOfTotals(&t)
		}},
		{"sequential-array-count", func() int64 {
			var c [regions]int64
			for i := range in {
				if o := &in[i]; o.Status != 0 {
					c[o.Region%regions]++
				}
			}
			return c[0] ^ c[regions-1]
		}},
		{"chunks-dense-count", func() int64 {
			var mu sync.Mutex
			var c [regions]int
			pfor.Chunks(0, len(in), func(lo, hi int) {
				var p [regions]int
				for _, o := range in[lo:hi] {
					if selOrder(o) {
						p[regionOf(o)%regions]++
					}
				}
				mu.Lock()
				for i := range c {
					c[i] += p[i]
				}
				mu.Unlock()
			})
			return int64(c[0] ^ c[regions-1])
		}},
		{"plinq-countby", func() int64 {
			var c [regions]int
			for _, kv := range must(plinq.CountBy(plinq.From(in).Where(selOrder), regionOf).ToSlice()) {
				c[kv.Key] = kv.Value
			}
			return int64(c[0] ^ c[regions-1])
		}},
	}
}

// BenchmarkGroupByDistinctKeys: GroupBy, Distinct and CountBy over 10M
// random int64, nearly all distinct, against sequential map loops, and
// CountBy's floor: filling a map sized for every key with keys already
// counted.
func BenchmarkGroupByDistinctKeys(b *testing.B) { runImpls(b, distinctImpls(ints10M())) }

func distinctImpls(in []int64) []impl {
	key := func(x int64) int64 { return x }
	return []impl{
		{"sequential-groupby", func() int64 {
			m := map[int64][]int64{}
			for _, x := range in {
				k := key(x)
				m[k] = append(m[k], x)
			}
			return int64(len(m))
		}},
		{"plinq-groupby", func() int64 { return int64(must(plinq.GroupBy(plinq.From(in), key).Count())) }},
		{"sequential-distinct", func() int64 {
			m := map[int64]struct{}{}
			var out []int64
			for _, x := range in {
				if _, ok := m[x]; !ok {
					m[x] = struct{}{}
					out = append(out, x)
				}
			}
			return int64(len(out))
		}},
		{"plinq-distinct", func() int64 { return int64(len(must(plinq.Distinct(plinq.From(in)).ToSlice()))) }},
		{"sequential-countby", func() int64 {
			m := map[int64]int{}
			for _, x := range in {
				m[key(x)]++
			}
			return int64(len(m))
		}},
		{"plinq-countby", func() int64 { return int64(len(must(plinq.CountBy(plinq.From(in), key).ToSlice()))) }},
		// The sequential map loop into a map sized for every element.
		{"sequential-countby-presized", func() int64 {
			m := make(map[int64]int, len(in))
			for _, x := range in {
				m[key(x)]++
			}
			return int64(len(m))
		}},
		// The floor of any CountBy that returns one Go map: a map can be
		// filled by one goroutine only, so each distinct key costs at least
		// an insertion into a map sized for all of them, even with the
		// keys already counted (here, before the timer starts).
		{"presized-map-fill", func() int64 {
			kc := keyCounts(in)
			m := make(map[int64]int, len(kc))
			for _, p := range kc {
				m[p.k] = p.c
			}
			return int64(len(m))
		}},
	}
}

// A keyCount is a distinct key and how many times it occurs.
type keyCount struct {
	k int64
	c int
}

var (
	countsOnce sync.Once
	counted    []int64
	counts     []keyCount
)

// keyCounts returns the distinct keys of in, in order of first appearance,
// with their counts: computed on the first call for in, and kept.
func keyCounts(in []int64) []keyCount {
	countsOnce.Do(func() {
		m := make(map[int64]int, len(in))
		for _, x := range in {
			m[x]++
		}
		for _, x := range in {
			if c := m[x]; c != 0 {
				counts = append(counts, keyCount{x, c})
				m[x] = 0
			}
		}
		counted = in
	})
	if &counted[0] != &in[0] {
		panic("keyCounts: called for a second input")
	}
	return counts
}
