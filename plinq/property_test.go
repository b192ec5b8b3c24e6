package plinq_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/stealkit/stealkit/partition"
	"github.com/stealkit/stealkit/pfor"
	"github.com/stealkit/stealkit/plinq"
)

// A pipeline is a random query and what the sequential reference says it
// yields.
type pipeline struct {
	desc      []string
	q         plinq.Query[int]
	ref       []int
	unordered bool // Unordered was applied: ToSlice and All may permute
}

func (p pipeline) String() string { return strings.Join(p.desc, ".") }

func mod(x, m int) int { return (x%m + m) % m }

// maxLen caps the length of random slices.
var maxLen = 3000

func randSlice(r *rand.Rand) []int {
	var n int
	switch r.IntN(10) {
	case 0:
		n = 0
	case 1:
		n = 1
	case 2, 3, 4:
		n = r.IntN(20)
	case 5, 6, 7:
		n = r.IntN(300)
	default:
		n = r.IntN(maxLen)
	}
	s := make([]int, n)
	for i := range s {
		s[i] = r.IntN(60) - 30
	}
	return s
}

func randSource(r *rand.Rand) pipeline {
	s := randSlice(r)
	switch r.IntN(4) {
	case 0:
		lo := r.IntN(20) - 10
		return pipeline{desc: []string{fmt.Sprintf("Range(%d, %d)", lo, lo+len(s))}, q: plinq.Range(lo, lo+len(s)), ref: refSelectIndexed(s, func(i, _ int) int { return lo + i })}
	case 1:
		return pipeline{desc: []string{fmt.Sprintf("FromSeq(%d)", len(s))}, q: plinq.FromSeq(slices.Values(s)), ref: s}
	case 2:
		v := r.IntN(10)
		return pipeline{desc: []string{fmt.Sprintf("Repeat(%d, %d)", v, len(s))}, q: plinq.Repeat(v, len(s)), ref: refSelect(s, func(int) int { return v })}
	}
	return pipeline{desc: []string{fmt.Sprintf("From(%d)", len(s))}, q: plinq.From(s), ref: s}
}

// hashInts is order-sensitive, so that comparing it checks order too.
func hashInts(s []int) int {
	h := 17
	for _, v := range s {
		h = h*31 + v
	}
	return h
}

func (p pipeline) then(desc string, q plinq.Query[int], ref []int) pipeline {
	return pipeline{desc: append(slices.Clip(p.desc), desc), q: q, ref: ref, unordered: p.unordered}
}

// configs are the option sets every pipeline runs under: several worker
// counts with every partitioner.
func configs() [][]pfor.Option {
	parts := []partition.Partitioner{partition.Static(), partition.Dynamic(1), partition.Dynamic(7), partition.Guided(1), partition.Stealing(), partition.Auto()}
	var out [][]pfor.Option
	for _, w := range []int{1, 2, 3} {
		for _, p := range parts {
			out = append(out, []pfor.Option{pfor.WithWorkers(w), pfor.WithPartitioner(p)})
		}
	}
	return append(out, []pfor.Option{pfor.WithWorkers(4), pfor.WithGrain(5)})
}

var seed = flag.Uint64("seed", 1, "seed of TestRandomPipelines' random pipelines")

// TestRandomPipelines builds random pipelines of 1 to 6 operators over
// random sources (empty and one-element among them), runs each with random
// terminal operations under every config, and compares each result with the
// sequential reference: exactly, or as a multiset for an unordered
// sequence. It runs once with the package's real sizes and once with every
// block, batch and window shrunk to a few elements, so that small inputs
// cross all their boundaries.
func TestRandomPipelines(t *testing.T) {
	for _, shrunk := range []bool{false, true} {
		t.Run(fmt.Sprintf("shrunk=%v", shrunk), func(t *testing.T) {
			n := 100
			if shrunk {
				defer plinq.ShrinkSizes()()
				defer func(m int) { maxLen = m }(maxLen)
				maxLen, n = 400, 60
			}
			if raceEnabled { // about 10x slower: keep the suite well under a minute
				n = n * 3 / 5
			}
			if testing.Short() {
				n /= 5
			}
			r := rand.New(rand.NewPCG(*seed, uint64(len(t.Name()))))
			for range n {
				checkPipeline(t, r, randPipeline(r))
			}
		})
	}
}

func randPipeline(r *rand.Rand) pipeline {
	p := randSource(r)
	for range 1 + r.IntN(6) {
		p = operators[r.IntN(len(operators))](r, p)
	}
	return p
}

func checkPipeline(t *testing.T, r *rand.Rand, p pipeline) {
	t.Helper()
	for _, opts := range configs() {
		q := p.q.With(opts...)
		for range 2 {
			term := terminals[r.IntN(len(terminals))]
			want, ok := term.ref(p.ref)
			var got any
			msg := catch(func() { got = term.run(q) })
			switch {
			case !ok && msg == "":
				t.Fatalf("%v.%s = %v; want a panic (reference: no answer)", p, term.name, got)
			case !ok && !strings.HasPrefix(msg, "plinq: "):
				t.Fatalf("%v.%s panicked with %q; want a plinq: message", p, term.name, msg)
			case !ok:
			case msg != "":
				t.Fatalf("%v.%s panicked: %s", p, term.name, msg)
			default:
				opts := []gocmp.Option{cmpopts.EquateEmpty()}
				if p.unordered && term.perm {
					opts = append(opts, cmpopts.SortSlices(func(a, b int) bool { return a < b }))
				}
				if d := gocmp.Diff(want, got, opts...); d != "" {
					t.Fatalf("%v.%s with %d options: mismatch (-want +got):\n%s", p, term.name, len(opts), d)
				}
			}
		}
	}
}

// catch returns the message of a panic in f, or "".
func catch(f func()) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			msg = fmt.Sprint(v)
			if msg == "" {
				msg = "(empty panic)"
			}
		}
	}()
	f()
	return ""
}
