package partition_test

import (
	"github.com/stealkit/stealkit/internal/partproto"
	"github.com/stealkit/stealkit/partition"
)

// stealingWith is partition.StealingWith with the options only pfor and the
// simulator use: a seed and a virtual clock.
func stealingWith(o partproto.Options) partition.Partitioner {
	return partproto.Stealing(o).(partition.Partitioner)
}
