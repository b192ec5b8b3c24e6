package pfor

import (
	"strconv"

	"github.com/stealkit/stealkit/partition"
)

// Do calls every function in fns in parallel and returns when all have
// returned. The functions are handed out one at a time, in order, to workers
// as they become idle. If any panics, functions not yet started do not
// start, those running finish, and Do re-raises the first panic as a
// *PanicError. Do panics if a function is nil.
func Do(fns ...func()) {
	for i, f := range fns {
		checkFunc("Do", "fns["+strconv.Itoa(i)+"]", f == nil)
	}
	c := configure(nil)
	c.part = partition.Dynamic(1)
	execute(nil, 0, len(fns), c, func(_, lo, hi int) error {
		for _, f := range fns[lo:hi] {
			f()
		}
		return nil
	})
}
