package pfor

import (
	"math"
	"runtime"
	"testing"
)

// TestScanPlanCuts: the plan's tiles cover [0, n) in order, each of
// scanTile to 2*scanTile elements once n is a tile long (the longest
// first, one longer at most), with a first and a last part of a third
// each, and the middle blocks cover the middle part in order, each of
// scanBlock elements but the last, no tile with more blocks than the first
// or the last (which size the scan's buffers); with the real sizes, n near
// the largest int too, and with shrunk sizes for every n up to 300.
func TestScanPlanCuts(t *testing.T) {
	for _, n := range []int{scanSequential, scanTile - 1, scanTile, 2*scanTile - 1, 2 * scanTile, 7*scanTile + 3, 100 * scanTile, math.MaxInt} {
		checkPlan(t, n)
	}
	defer shrinkScan()()
	for n := range 300 {
		checkPlan(t, n)
	}
}

func checkPlan(t *testing.T, n int) {
	t.Helper()
	p := newScanPlan(n)
	if p.lo(0) != 0 || p.lo(p.tiles) != n {
		t.Fatalf("n=%d: tiles cover [%d, %d); want [0, %d)", n, p.lo(0), p.lo(p.tiles), n)
	}
	long, most := p.lo(1)-p.lo(0), max(p.blocks(0), p.blocks(p.tiles-1))
	for tile := range min(p.tiles, 1000) { // every tile but of MaxInt, whose first 1000
		lo, hi := p.lo(tile), p.lo(tile+1)
		if l := hi - lo; l > long || l < long-1 || n >= scanTile && (l < scanTile || l >= 2*scanTile) {
			t.Fatalf("n=%d: tile %d is [%d, %d); want %d or %d elements, in [%d, %d)", n, tile, lo, hi, long, long-1, scanTile, 2*scanTile)
		}
		first, last := p.middle(tile)
		if first-lo != (hi-lo)/3 || hi-last != (hi-lo)/3 {
			t.Fatalf("n=%d: tile %d [%d, %d) has the middle [%d, %d); want a third before and after it", n, tile, lo, hi, first, last)
		}
		if p.blocks(tile) > most {
			t.Fatalf("n=%d: tile %d has %d blocks, more than the first or the last tile's %d", n, tile, p.blocks(tile), most)
		}
		if n == math.MaxInt {
			continue // too many blocks to list
		}
		end := first
		for b := range p.blocks(tile) {
			blo, bhi := p.block(tile, b)
			if blo != end || bhi <= blo || bhi-blo > scanBlock || bhi-blo < scanBlock && bhi != last {
				t.Fatalf("n=%d: tile %d's block %d is [%d, %d) after %d; want %d elements from %d", n, tile, b, blo, bhi, end, scanBlock, end)
			}
			end = bhi
		}
		if end != last {
			t.Fatalf("n=%d: tile %d's blocks end at %d; want %d", n, tile, end, last)
		}
	}
}

// TestScanTilesIgnoreWorkers: a scan of tilt over several tiles is the same
// bit for bit at every worker count from 1 to 8, with more workers than
// cores too, for lengths around tile boundaries, with the real sizes and
// shrunk ones; and tilt shows the tiling (a plan with twice the tiles
// gives other bits), so a plan that cut its tiles by the worker count
// would fail.
func TestScanTilesIgnoreWorkers(t *testing.T) {
	in := make([]float64, 4*scanTile+7)
	for i := range in {
		in[i] = float64(i%97) - 48.5
	}
	check := func(n int) {
		t.Helper()
		want := Scan(in[:n], 0, tilt, WithWorkers(1))
		for w := 2; w <= 8; w++ {
			if i := firstDiff(Scan(in[:n], 0, tilt, WithWorkers(w)), want); i >= 0 {
				t.Fatalf("n=%d (%d tiles of %d): Scan with %d workers: out[%d] differs from Scan's with 1 worker", n, newScanPlan(n).tiles, scanTile, w, i)
			}
		}
		if newScanPlan(n).tiles < 2 {
			return
		}
		tile := scanTile
		scanTile /= 2
		defer func() { scanTile = tile }()
		if firstDiff(Scan(in[:n], 0, tilt, WithWorkers(1)), want) < 0 {
			t.Fatalf("n=%d: a scan of tilt with tiles of %d and of %d agree: tilt does not show the tiling", n, tile, scanTile)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, n := range []int{2*scanTile - 1, 2 * scanTile, 3*scanTile + 1, len(in)} {
		check(n)
	}
	defer shrinkScan()()
	for n := scanSequential; n < 100; n++ {
		check(n)
	}
}
