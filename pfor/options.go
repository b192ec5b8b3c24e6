package pfor

import (
	"fmt"
	"runtime"

	"github.com/stealkit/stealkit/internal/callname"
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// An Option configures one parallel call. A nil Option is a bad argument:
// the call panics with a message naming it.
type Option func(*config)

type config struct {
	workers int                   // 0: GOMAXPROCS at the time of the call
	part    partition.Partitioner // nil: partition.Auto()
	grain   int                   // 0: the partitioner's own
	stats   *Stats
	label   string
	call    string // the entry point, for messages and *PanicError
}

// WithWorkers sets the number of workers (worker slots) of a call; the
// default is runtime.GOMAXPROCS(0) at the time of the call. A call has at
// most one slot per item (per grain, see WithGrain) and at most 65,536
// slots, whatever n asks. It panics if n < 1.
func WithWorkers(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("pfor: WithWorkers(%d): need at least one worker", n))
	}
	return func(c *config) { c.workers = n }
}

// WithPartitioner sets how indices are divided among workers; the default is
// partition.Auto(). It panics if p is nil. A call whose partitioner's Start
// returns a nil Run panics, naming the call and p. The ranges a Run's Next
// hands out are not checked: they must be non-empty and within [lo, hi),
// as partition.Run requires, for the call to run each index once.
func WithPartitioner(p partition.Partitioner) Option {
	if p == nil {
		panic("pfor: WithPartitioner: p is nil; omit the option for the default, partition.Auto()")
	}
	return func(c *config) { c.part = p }
}

// WithGrain sets the grain: the number of items a worker takes at a time
// from partitioners that take a grain (Auto, Stealing; see
// partition.Grained), and the size up to which a call runs inline on the
// caller's goroutine without starting any worker: a call has at most one
// worker slot per n items. For Reduce it is the size of the blocks whose
// partial results are combined. It panics if n < 1.
func WithGrain(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("pfor: WithGrain(%d): grain must be at least 1", n))
	}
	return func(c *config) { c.grain = n }
}

// WithStats makes the call fill *s with per-worker statistics when it
// returns. Measuring costs two clock reads per chunk. It panics if s is
// nil.
func WithStats(s *Stats) Option {
	if s == nil {
		panic("pfor: WithStats: s is nil; pass the *Stats to fill")
	}
	return func(c *config) { c.stats = s }
}

// WithLabel names the loop in profiles: while they run the call's chunks,
// pool workers and extra helpers carry the pprof label loop=name (in
// addition to stealkit="pfor helper" and helper=N, which they always
// carry), and with runtime/trace enabled each worker slot is a trace region
// named "pfor "+name. Setting labels costs a few allocations per call; an
// empty name sets none.
func WithLabel(name string) Option {
	return func(c *config) { c.label = name }
}

// defaultPartitioner is partition.Auto(), made once: a partitioner holds no
// state of its own, its runs do.
var defaultPartitioner = partition.Auto()

var configs = spare[config]{new: func() *config { return new(config) }}

// configure applies the options of a call to the entry point named call.
func configure(call string, opts []Option) config {
	c := config{call: call}
	if len(opts) > 0 {
		// The compiler cannot see into an Option, so applying options to c
		// would move c to the heap on every call: apply them to a pooled
		// config instead.
		p := configs.get()
		*p = c
		for i, o := range opts {
			if o == nil {
				panic(fmt.Sprintf("pfor: %s: opts[%d] is nil", call, i))
			}
			o(p)
		}
		c = *p
		*p = config{} // drop the references the options stored
		configs.put(p)
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	if c.part == nil {
		c.part = defaultPartitioner
	}
	return c
}

// partitioner returns the partitioner with the grain applied, if it takes one.
func (c config) partitioner() partition.Partitioner {
	if c.grain == 0 { // no type assertion on the common path
		return c.part
	}
	if g, ok := c.part.(partition.Grained); ok {
		return g.WithGrain(c.grain)
	}
	return c.part
}

func init() {
	callname.Option = func(name string) any { return Option(func(c *config) { c.call = name }) }
}

// adapts reports whether the call's batches are the partitioner's to size,
// with no promise made about them: Auto's, with no grain set. Only such calls
// start on the caller alone while helpers are late (see late.go); the others
// hand out the ranges their partitioner and grain promise.
func (c config) adapts() bool {
	if c.grain != 0 {
		return false
	}
	a, ok := c.part.(partproto.Adaptive)
	return ok && a.Adapts()
}
