package workload

// query: a filter/map/group query over a generated table of orders, the kind of loop plinq is
// for:
//
//	SELECT region, COUNT(*), SUM(revenue) FROM orders
//	WHERE status <> cancelled AND qty >= 2 GROUP BY region
//
// with revenue = qty*price, less 5% (rounded down to the cent) for 10 items or more. Item b is
// block b of QueryBlock orders: Chunk folds each of its blocks into the block's own partial
// totals, one per region, so that any loop can run it; Checksum adds the blocks' partials up,
// in block order, into the query's result, QueryRegions totals. All sums are integers, so the
// result does not depend on the order of the additions, and a runner that computes the
// totals another way (plinq's GroupBy, per-worker partials) hands them to SetTotals for the
// same checksum.
//
// The table: order k takes the k-th output z of splitmix64 seeded 42 and has price
// 100 + (z&0xffff)%99900 cents, customer (z>>16)%100000, region (z>>40)%16, qty 1 + (z>>48)%12,
// and status by (z>>56)%100: below 8 cancelled, below 20 pending, below 50 paid, else shipped.
// About 84% of the orders are selected. An order is 16 bytes; the default 4,096 blocks are 4
// million orders, 64 MiB.

// Parameters of query.
const (
	QueryBlock   = 1024 // orders per item
	QueryRegions = 16   // distinct regions: the group keys 0..15
	querySeed    = 42
	queryRowCost = 1.0 // model cost of reading and testing an order, in Spin iterations
	querySelCost = 1.0 // model cost of adding a selected order to its region's totals
)

// Order statuses.
const (
	OrderCancelled = iota
	OrderPending
	OrderPaid
	OrderShipped
)

// Order is one row of the query workload's table.
type Order struct {
	Price    int64  // unit price, in cents
	Customer uint32 // not used by the query
	Region   uint16 // the group key, in [0, QueryRegions)
	Qty      uint8  // items, 1 to 12
	Status   uint8  // OrderCancelled, OrderPending, OrderPaid or OrderShipped
}

// Selected reports whether the query counts o: it is not cancelled and has at least 2 items.
func (o Order) Selected() bool { return selected(o.Status, o.Qty) }

func selected(status, qty uint8) bool { return status != OrderCancelled && qty >= 2 }

// Revenue returns o's revenue in cents: Qty*Price, less 5% (rounded down) for 10 items or more.
func (o Order) Revenue() int64 { return revenue(o.Qty, o.Price) }

func revenue(qty uint8, price int64) int64 {
	r := int64(qty) * price
	if qty >= 10 {
		r -= r / 20
	}
	return r
}

// RegionTotal is the query's result for one region: the number of selected orders and the sum
// of their revenues.
type RegionTotal struct {
	Orders, Revenue int64
}

// RegionOf returns o's region, the query's group key.
func RegionOf(o Order) uint16 { return o.Region }

// AddOrder returns t with o added: one more order and o's revenue. It does not test whether o
// is selected.
func AddOrder(t RegionTotal, o Order) RegionTotal {
	t.Orders++
	t.Revenue += o.Revenue()
	return t
}

// AddTotals returns the sum of a and b.
func AddTotals(a, b RegionTotal) RegionTotal {
	a.Orders += b.Orders
	a.Revenue += b.Revenue
	return a
}

// AddOrders adds the selected orders of orders to t, by region: the query's fused
// filter/map/group loop, which Chunk runs per block and other runners may run over any range.
//
// It reads each order in place: a loop over copies of the orders (range by value, or the
// value methods Selected and Revenue) has the compiler copy every order through its stack
// frame (Order has too many fields to stay in registers), which makes the loop markedly slower
// in BenchmarkAddOrders and its speed depend on the goroutine that runs it.
func AddOrders(t *[QueryRegions]RegionTotal, orders []Order) {
	for i := range orders {
		o := &orders[i]
		if selected(o.Status, o.Qty) {
			r := &t[o.Region%QueryRegions]
			r.Orders++
			r.Revenue += revenue(o.Qty, o.Price)
		}
	}
}

// QueryInstance is the query workload's Instance. Besides the Instance methods it gives a
// runner the table (Orders) and takes a result computed another way (SetTotals).
type QueryInstance struct {
	orders   []Order                     // read-only after New
	selected []int32                     // selected orders per block, for Cost
	part     [][QueryRegions]RegionTotal // each block's partial totals; zero after Reset
	totals   [QueryRegions]RegionTotal   // set by SetTotals
	direct   bool                        // totals holds the result (SetTotals since Reset)
}

// newQuery returns the query instance with n blocks of QueryBlock orders.
func newQuery(n int) Instance {
	in := &QueryInstance{orders: make([]Order, n*QueryBlock), selected: make([]int32, n), part: make([][QueryRegions]RegionTotal, n)}
	state := uint64(querySeed)
	for k := range in.orders {
		var z uint64
		state, z = splitmix64(state)
		o := Order{
			Price:    100 + int64(z&0xffff)%99_900,
			Customer: uint32((z >> 16) % 100_000),
			Region:   uint16((z >> 40) % QueryRegions),
			Qty:      uint8(1 + (z>>48)%12),
		}
		switch s := (z >> 56) % 100; {
		case s < 8:
			o.Status = OrderCancelled
		case s < 20:
			o.Status = OrderPending
		case s < 50:
			o.Status = OrderPaid
		default:
			o.Status = OrderShipped
		}
		in.orders[k] = o
		if o.Selected() {
			in.selected[k/QueryBlock]++
		}
	}
	return in
}

// Orders returns the table, n·QueryBlock orders; the caller must not modify it.
func (in *QueryInstance) Orders() []Order { return in.orders }

// SetTotals records the query's result over the whole table, computed by a runner's own
// loop, so that Checksum digests it instead of the blocks' partials until the next Reset.
func (in *QueryInstance) SetTotals(t *[QueryRegions]RegionTotal) {
	in.totals = *t
	in.direct = true
}

// Len returns the number of blocks.
func (in *QueryInstance) Len() int { return len(in.part) }

// Reset zeroes the blocks' partials and forgets a result given to SetTotals.
func (in *QueryInstance) Reset() {
	clear(in.part)
	in.totals = [QueryRegions]RegionTotal{}
	in.direct = false
}

// Chunk sets the partial totals of the blocks [lo, hi), in order.
func (in *QueryInstance) Chunk(lo, hi int) {
	checkRange("Chunk", lo, hi, len(in.part))
	in.blocks(lo, hi)
}

// Item sets the partial totals of block b.
func (in *QueryInstance) Item(b int) {
	checkIndex("Item", b, len(in.part))
	in.blocks(b, b+1)
}

func (in *QueryInstance) blocks(lo, hi int) {
	for b := lo; b < hi; b++ {
		p := &in.part[b]
		*p = [QueryRegions]RegionTotal{}
		AddOrders(p, in.orders[b*QueryBlock:(b+1)*QueryBlock])
	}
}

// Checksum returns the FNV-1a digest of the result, (orders, revenue) of each region in
// order: the totals given to SetTotals, or else the sum of the blocks' partials.
func (in *QueryInstance) Checksum() uint64 {
	t := in.totals
	if !in.direct {
		for b := range in.part {
			for r, p := range in.part[b] {
				t[r].Orders += p.Orders
				t[r].Revenue += p.Revenue
			}
		}
	}
	h := uint64(fnvOffset64)
	for _, r := range t {
		h = fnvWord(fnvWord(h, uint64(r.Orders)), uint64(r.Revenue))
	}
	return h
}

// Cost returns queryRowCost per order of block b plus querySelCost per selected one.
func (in *QueryInstance) Cost(b int) float64 {
	checkIndex("Cost", b, len(in.part))
	return queryRowCost*QueryBlock + querySelCost*float64(in.selected[b])
}
