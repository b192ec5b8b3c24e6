package plinq_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stealkit/stealkit/plinq"
)

// TestScanParallel: Scan and ScanExclusive of an input long enough for the
// parallel plan equal the sequential scan, element by element, for an
// associative, non-commutative op (the last 12 bytes of a concatenation),
// under every config, after a filter (which is collected first).
func TestScanParallel(t *testing.T) {
	const n = 100_003
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(i%10) + ","
	}
	op := func(a, b string) string { c := a + b; return c[len(c)-min(len(c), 12):] }
	keep := func(v string) bool { return v != "3," }
	src := refWhere(s, keep)
	for _, inclusive := range []bool{true, false} {
		want := refScan(src, "", op, inclusive)
		for _, opts := range configs() {
			q := plinq.From(s).With(opts...).Where(keep)
			var got []string
			if inclusive {
				got = must(plinq.Scan(q, "", op).ToSlice())
			} else {
				got = must(plinq.ScanExclusive(q, "", op).ToSlice())
			}
			if !slices.Equal(got, want) {
				t.Fatalf("inclusive=%v with %d options: the scan differs from the sequential one", inclusive, len(opts))
			}
		}
	}
}

// TestChunkDoesNotAlias: Chunk's batches of a slice source are copies,
// capped: writing to or appending to a batch changes neither the source
// nor the next batch.
func TestChunkDoesNotAlias(t *testing.T) {
	s := []int{0, 1, 2, 3, 4}
	batches := must(plinq.Chunk(plinq.From(s), 2).ToSlice())
	batches[0][0] = 100
	_ = append(batches[0], 200)
	if !slices.Equal(s, []int{0, 1, 2, 3, 4}) || batches[1][0] != 2 {
		t.Errorf("after writing to and appending to batch 0: source %v, batch 1 %v; want both unchanged", s, batches[1])
	}
}
