package runner_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
)

// goldenChecksums is the file of pinned checksums that internal/workload's tests read too.
const goldenChecksums = "../../../testdata/workloads/checksums.txt"

// pinned is one line of goldenChecksums: the checksum of one repetition of workload name at
// n items.
type pinned struct {
	name     string
	n        int
	checksum uint64
}

// readPinned parses goldenChecksums: lines "name n checksum", # comments and blank lines.
func readPinned(t *testing.T) []pinned {
	t.Helper()
	f, err := os.Open(goldenChecksums)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ps []pinned
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		n, err1 := strconv.Atoi(fields[1%len(fields)])
		sum, err2 := strconv.ParseUint(fields[len(fields)-1], 0, 64)
		if len(fields) != 3 || err1 != nil || err2 != nil || n < 1 {
			t.Fatalf("%s:%d: %q: want a name, n >= 1 and a checksum", goldenChecksums, line, sc.Text())
		}
		ps = append(ps, pinned{fields[0], n, sum})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestCompareRecordsPinnedChecksums: for every workload, a comparison of the sequential
// loop and auto at the smallest size pinned for it records the pinned checksum, so that the
// runner measures the workloads that the golden file and benchmarks/WORKLOADS.md define,
// with every repetition's passes. (internal/workload's tests check the larger sizes.)
func TestCompareRecordsPinnedChecksums(t *testing.T) {
	smallest := map[string]pinned{}
	for _, p := range readPinned(t) {
		if q, ok := smallest[p.name]; !ok || p.n < q.n {
			smallest[p.name] = p
		}
	}
	for _, w := range workloads.All() {
		p, ok := smallest[w.Name]
		if !ok {
			t.Errorf("%s pins no checksum of %s", goldenChecksums, w.Name)
			continue
		}
		rs, err := runner.Compare(runner.Config{Workloads: []workloads.Workload{w}, Impls: pickImpls(t, "auto"), Workers: []int{2}, N: p.n, Repeat: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Checksum != p.checksum || r.N != p.n || r.Calls != w.Calls {
				t.Errorf("%s/%s with N = %d: checksum %#016x over %d items, %d calls; want %#016x as pinned, %d items, %d calls", p.name, r.Impl, p.n, r.Checksum, r.N, r.Calls, p.checksum, p.n, w.Calls)
			}
		}
	}
}
