// Package impls holds the implementations of a parallel loop that the runner compares:
// baselines a user would write by hand, stealkit's partitioners, and peer libraries.
//
// Every implementation runs one parallel pass over a workload instance: it calls the
// instance's Chunk or Item for every index in [0, n) exactly once, on at most the given
// number of workers, and returns when all of them have returned.
package impls

import (
	"fmt"
	"slices"
	"time"

	"github.com/stealkit/stealkit/internal/workload"
)

// Group says where an implementation comes from.
type Group string

const (
	Baseline Group = "baseline" // hand-written with the standard library
	Stealkit Group = "stealkit" // pfor with one of stealkit's partitioners
	Peer     Group = "peer"     // another Go library
)

// Impl is one implementation of a parallel loop.
type Impl struct {
	Name   string // as in benchmark names: "impl=" + Name
	Group  Group  // baseline, stealkit or peer: how the report colours and groups it
	Module string // module whose version the output records; "" for the standard library and stealkit
	About  string // how it runs a loop, one line

	// MaxN is the largest n the implementation is run on, 0 for any: starting a goroutine per
	// item is only sensible for small loops.
	MaxN int

	// AnyWorkers is set for an implementation that ignores the number of workers (a goroutine
	// per item runs on every core the Go scheduler has): the runner measures it once, with
	// the largest number of workers asked for, so that no row claims a worker count it did not
	// use.
	AnyWorkers bool

	// Workload, if not "", is the only workload the implementation runs: it computes that
	// workload's result its own way (plinq's operators, per-worker partials) instead of
	// calling Chunk. Every other implementation runs every workload.
	Workload string

	// Start prepares a run with the given number of workers (at least 1) and returns the
	// function that makes one parallel pass, and the one that releases what Start made (the
	// peers' pools). run may be called any number of times, from one goroutine at a time.
	Start func(workers int) (run func(workload.Instance), stop func())

	// Measure, if not nil, makes one pass like run and reports how it went; it costs two clock
	// reads per chunk, so the runner calls it outside the timed repetitions.
	Measure func(inst workload.Instance, workers int) Stats
}

// Stats describe one measured pass.
type Stats struct {
	Busy   []time.Duration // per worker: time spent in the workload's body
	Steals int64           // successful steals, for the stealing partitioners
}

// Imbalance returns the busiest worker's busy time over the mean (1 is perfect balance), or 1
// if no worker was busy.
func (s Stats) Imbalance() float64 {
	var sum, most time.Duration
	for _, b := range s.Busy {
		sum += b
		most = max(most, b)
	}
	if sum == 0 {
		return 1
	}
	return float64(most) * float64(len(s.Busy)) / float64(sum)
}

// All returns every implementation, in report order: baselines, stealkit (its partitioners,
// then plinq, plinq-aggregate, plinq-aggregateby, chunksdense and chunkslocal, which run the query workload only), peers.
func All() []Impl {
	return slices.Concat(baselines(), stealkits(), queryImpls(), peers())
}

// Runs reports whether im runs the named workload.
func (im Impl) Runs(workload string) bool { return im.Workload == "" || im.Workload == workload }

// describeInstance names an instance's dynamic type, for panic messages.
func describeInstance(inst workload.Instance) string { return fmt.Sprintf("%T", inst) }

// ByName returns the implementation of All with the given name, and reports whether there is one.
func ByName(name string) (Impl, bool) {
	for _, im := range All() {
		if im.Name == name {
			return im, true
		}
	}
	return Impl{}, false
}

// Names returns the names of All, in order.
func Names() []string {
	var s []string
	for _, im := range All() {
		s = append(s, im.Name)
	}
	return s
}

// noStop is the stop function of implementations that hold nothing between passes.
func noStop() {}

// span returns the k-th of parts nearly equal pieces of [0, n); the products are formed in
// int64 so that they cannot overflow where int has 32 bits.
func span(n, k, parts int) (lo, hi int) {
	return int(int64(n) * int64(k) / int64(parts)), int(int64(n) * int64(k+1) / int64(parts))
}

// mustPositive panics unless workers >= 1; every Start calls it.
func mustPositive(name string, workers int) {
	if workers < 1 {
		panic(fmt.Sprintf("impls: %s.Start(%d): need at least one worker", name, workers))
	}
}
