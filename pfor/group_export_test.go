package pfor

// TaskWorkers reports how many worker goroutines the task pool has started.
func TaskWorkers() int { return thePool.Live() }

// TaskIdle reports how many workers and guests of the task pool are
// searching for work and how many sleep.
func TaskIdle() (searching, sleeping int) { return thePool.IdleCounts() }

// TaskVictims reports how many deques the task pool's idle workers search:
// its workers' and its guests'.
func TaskVictims() int { return len(thePool.Victims()) }

// TaskBusy reports whether some worker of the task pool runs and none
// searches or sleeps: what Do and Join read first to run inline.
func TaskBusy() bool { return thePool.Idle().Busy() }
