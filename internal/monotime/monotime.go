// Package monotime reads the monotonic clock that the scheduler and the
// partitioners time batches and calls with.
package monotime

import "time"

var epoch = time.Now()

// Now returns the nanoseconds since the package was initialized, read from
// the monotonic clock: it never goes backwards and does not follow changes
// of the wall clock. Unlike time.Now, it does not read the wall clock. Any
// goroutine may call it; readings from different goroutines compare.
func Now() int64 { return int64(time.Since(epoch)) }
