package runner_test

import (
	"testing"

	"github.com/stealkit/stealkit/benchmarks/internal/runner"
	"github.com/stealkit/stealkit/benchmarks/internal/workloads"
	"github.com/stealkit/stealkit/internal/golden"
)

// goldenChecksums is the file of pinned checksums that internal/workload's tests read too.
const goldenChecksums = "../../../testdata/workloads/checksums.txt"

// readPinned reads goldenChecksums.
func readPinned(t *testing.T) []golden.Checksum {
	t.Helper()
	ps, err := golden.ReadChecksums(goldenChecksums)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestCompareRecordsPinnedChecksums: for every workload, a comparison of the sequential
// loop and auto at the smallest size pinned for it records the pinned checksum, so that the
// runner measures the workloads that the golden file and benchmarks/WORKLOADS.md define,
// with every repetition's passes. (internal/workload's tests check the larger sizes.)
func TestCompareRecordsPinnedChecksums(t *testing.T) {
	smallest := map[string]golden.Checksum{}
	for _, p := range readPinned(t) {
		if q, ok := smallest[p.Name]; !ok || p.N < q.N {
			smallest[p.Name] = p
		}
	}
	for _, w := range workloads.All() {
		p, ok := smallest[w.Name]
		if !ok {
			t.Errorf("%s pins no checksum of %s", goldenChecksums, w.Name)
			continue
		}
		rs, err := runner.Compare(runner.Config{Workloads: []workloads.Workload{w}, Impls: pickImpls(t, "auto"), Workers: []int{2}, N: p.N, Repeat: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Checksum != p.Checksum || r.N != p.N || r.Calls != w.Calls {
				t.Errorf("%s/%s with N = %d: checksum %#016x over %d items, %d calls; want %#016x as pinned, %d items, %d calls", p.Name, r.Impl, p.N, r.Checksum, r.N, r.Calls, p.Checksum, p.N, w.Calls)
			}
		}
	}
}
