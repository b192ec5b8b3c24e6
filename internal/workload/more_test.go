package workload_test

import (
	"slices"
	"testing"

	"github.com/stealkit/stealkit/internal/workload"
)

func TestMoreWorkloads(t *testing.T) {
	more := workload.More()
	checkList(t, "More()", more, []listed{{"spmv", 200_000, 1}, {"matmul", 512, 1}, {"query", 4_096, 1}})
	for i, w := range more {
		if slices.ContainsFunc(workload.All(), func(a workload.Workload) bool { return a.Name == w.Name }) {
			t.Errorf("More()[%d] = %q is also in All(), which holds the seven of benchmarks/WORKLOADS.md only", i, w.Name)
		}
	}
}

// TestSpmvRowsFollowAPowerLaw checks the shape of spmv's row lengths: at least 16 entries,
// a mean near 48, and a tail of rows far longer than the mean.
func TestSpmvRowsFollowAPowerLaw(t *testing.T) {
	const n = 50_000
	w, _ := workload.ByName("spmv")
	inst := w.New(n)
	entries := func(i int) float64 { return (inst.Cost(i) - 4) / 0.8 } // Cost is 4 + 0.8 per entry
	var sum, most float64
	least := entries(0)
	for i := range n {
		e := entries(i)
		sum += e
		most, least = max(most, e), min(least, e)
	}
	if mean := sum / n; mean < 40 || mean > 56 {
		t.Errorf("spmv New(%d): mean row length %.1f; want about 48", n, mean)
	}
	if least < 16 {
		t.Errorf("spmv New(%d): shortest row %.0f entries; want at least 16", n, least)
	}
	if most < 100*48 {
		t.Errorf("spmv New(%d): longest row %.0f entries; want a heavy tail (over 100 times the mean)", n, most)
	}
}

// refQueryChecksum computes query's result from the table as a user would, with a map, and
// digests it as Checksum does: (orders, revenue) per region, in region order.
func refQueryChecksum(orders []workload.Order) uint64 {
	type total struct{ n, rev int64 }
	m := map[uint16]total{}
	for _, o := range orders {
		if o.Status == workload.OrderCancelled || o.Qty < 2 {
			continue
		}
		rev := int64(o.Qty) * o.Price
		if o.Qty >= 10 {
			rev -= rev / 20 // 5% off, rounded down to the cent
		}
		t := m[o.Region]
		m[o.Region] = total{t.n + 1, t.rev + rev}
	}
	var words []uint64
	for r := range uint16(workload.QueryRegions) {
		words = append(words, uint64(m[r].n), uint64(m[r].rev))
	}
	return refChecksum(words)
}

func TestQueryMatchesReference(t *testing.T) {
	w, _ := workload.ByName("query")
	inst := w.New(50).(*workload.QueryInstance)
	orders := inst.Orders()
	if len(orders) != 50*workload.QueryBlock {
		t.Fatalf("query New(50): %d orders; want %d", len(orders), 50*workload.QueryBlock)
	}
	want := refQueryChecksum(orders)
	inst.Chunk(0, 50)
	if got := inst.Checksum(); got != want {
		t.Errorf("query New(50), Chunk(0, 50): Checksum() = %#x; want %#x from a map loop", got, want)
	}

	// The same result computed over the whole table, handed to SetTotals.
	inst.Reset()
	var totals [workload.QueryRegions]workload.RegionTotal
	workload.AddOrders(&totals, orders)
	inst.SetTotals(&totals)
	if got := inst.Checksum(); got != want {
		t.Errorf("query: SetTotals(AddOrders over all orders) then Checksum() = %#x; want %#x", got, want)
	}
	inst.Reset()
	if got, empty := inst.Checksum(), refQueryChecksum(nil); got != empty {
		t.Errorf("query: Reset after SetTotals: Checksum() = %#x; want %#x, no orders counted", got, empty)
	}
}

// TestQueryTable checks the generated table: every field in its range, about 84% of the orders
// selected, every region and status present, and Cost following the selected orders.
func TestQueryTable(t *testing.T) {
	w, _ := workload.ByName("query")
	inst := w.New(64).(*workload.QueryInstance)
	selected := 0
	regions, statuses := map[uint16]bool{}, map[uint8]bool{}
	for _, o := range inst.Orders() {
		if o.Price < 100 || o.Price >= 100_000 || o.Customer >= 100_000 || o.Region >= workload.QueryRegions ||
			o.Qty < 1 || o.Qty > 12 || o.Status > workload.OrderShipped {
			t.Fatalf("query: order %+v out of range", o)
		}
		regions[o.Region], statuses[o.Status] = true, true
		if o.Selected() {
			selected++
		}
	}
	if f := float64(selected) / float64(len(inst.Orders())); f < 0.82 || f > 0.86 {
		t.Errorf("query: %.3f of the orders selected; want about 0.84 (0.92 not cancelled x 11/12 with 2+ items)", f)
	}
	if len(regions) != workload.QueryRegions || len(statuses) != 4 {
		t.Errorf("query: %d regions and %d statuses present; want %d and 4", len(regions), len(statuses), workload.QueryRegions)
	}
	for b := range inst.Len() {
		n := 0
		for _, o := range inst.Orders()[b*workload.QueryBlock : (b+1)*workload.QueryBlock] {
			if o.Selected() {
				n++
			}
		}
		if got, want := inst.Cost(b), float64(workload.QueryBlock+n); got != want {
			t.Fatalf("query: Cost(%d) = %g; want %g (an order plus a selected order)", b, got, want)
		}
	}
}
