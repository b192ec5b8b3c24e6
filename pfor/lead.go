package pfor

import "time"

// lead runs [lo, hi) on the caller's goroutine alone, as worker 0, in
// batches that start at one item and grow to take about leadBatch each,
// until the range is done, the job stops or the clock passes deadline, and
// returns where it stopped. A panic in the body stops the job, as in
// runSlot. It is how a call starts while helpers lag (see lag.go).
func (j *job) lead(lo, hi int, deadline int64) (next int) {
	defer func() {
		if r := recover(); r != nil {
			j.panicked(r)
			next = hi
		}
	}()
	defer j.region()()
	var ws *WorkerStats
	if j.stats != nil {
		ws = &j.stats.workers[0].WorkerStats
	}
	batch, t := 1, now() // the items' cost is not known yet: one may take long
	for lo < hi && t < deadline {
		if j.stopped() {
			return lo
		}
		end := lo + int(min(uint64(batch), uint64(hi)-uint64(lo))) // hi-lo may overflow int
		if err := j.process(0, lo, end, nil, ws); err != nil {
			j.fail(err, nil)
			return lo
		}
		t1 := now()
		// The next batch takes about leadBatch at the speed of this one,
		// and has at most four times as many items.
		batch = int(min(max(int64(end-lo)*int64(leadBatch)/max(t1-t, 1), 1), 4*int64(batch), 1<<16))
		lo, t = end, t1
	}
	return lo
}

// leadBatch is how long a batch of lead should take: a clock read per
// batch is under 1% of it, and lead passes its deadline by about a batch.
const leadBatch = 10 * time.Microsecond
