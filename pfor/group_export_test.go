package pfor

// TaskWorkers reports how many worker goroutines the task pool has started.
func TaskWorkers() int { return int(taskSched.live.Load()) }

// TaskIdle reports how many workers and guests of the task pool are
// searching for work and how many sleep.
func TaskIdle() (searching, sleeping int) { return taskSched.idle.Counts() }
