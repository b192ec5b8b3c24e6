package pfor_test

import (
	"testing"
	"time"

	"github.com/stealkit/stealkit/pfor"
)

// TestWaitSleepsAndWakes: a Group.Wait whose last task runs on a pool
// worker for a while searches, sleeps, and is woken when the task
// finishes. (Wait makes itself known to the Group's finish only when it
// may sleep: a waiter never listed would sleep for good.)
func TestWaitSleepsAndWakes(t *testing.T) {
	procSweepOf(t, []int{2, 4}, func(t *testing.T) {
		for range 20 {
			var g pfor.Group
			started, release := make(chan struct{}), make(chan struct{})
			g.Go(func(*pfor.Worker) error { close(started); <-release; return nil })
			<-started // on a pool worker: the test's goroutine is not in the pool
			time.AfterFunc(time.Millisecond, func() { close(release) })
			within(t, 10*time.Second, "Group.Wait for a task on a pool worker", func() {
				if err := g.Wait(); err != nil {
					t.Errorf("Wait = %v; want nil", err)
				}
			})
		}
	})
}
