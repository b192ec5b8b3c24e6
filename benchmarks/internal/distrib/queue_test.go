package distrib

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLockedQueueModel: random pushes, pops, removals and moves between two
// lockedQueues leave them holding what two slices would, oldest first, with
// size and each task's queue kept up to date.
func TestLockedQueueModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	qs := [2]*lockedQueue{{rank: 0, open: true}, {rank: 1, open: true}}
	var models [2][]*task
	for op := range 20000 {
		i := rng.IntN(2)
		q, m := qs[i], &models[i]
		switch rng.IntN(6) {
		case 0, 1:
			x := new(task)
			q.pushBottom(x)
			*m = append(*m, x)
		case 2:
			x := new(task)
			q.pushTop(x)
			*m = slices.Insert(*m, 0, x)
		case 3:
			got := q.popBottom()
			var want *task
			if len(*m) > 0 {
				want = (*m)[len(*m)-1]
				*m = (*m)[:len(*m)-1]
			}
			if got != want {
				t.Fatalf("op %d: popBottom = %p; want %p", op, got, want)
			}
		case 4:
			if len(*m) == 0 {
				if got := q.popTop(); got != nil {
					t.Fatalf("op %d: popTop of an empty queue = %p", op, got)
				}
				continue
			}
			k := rng.IntN(len(*m))
			x := (*m)[k]
			q.remove(x)
			*m = slices.Delete(*m, k, k+1)
			if x.queue.Load() != nil {
				t.Fatalf("op %d: removed task still names a queue", op)
			}
		case 5:
			k := rng.IntN(len(*m) + 1)
			o := &models[1-i]
			q.moveTop(qs[1-i], k)
			*o = append(slices.Clone((*m)[:k]), *o...)
			*m = (*m)[k:]
		}
		for j, q := range qs {
			if q.Len() != len(models[j]) || q.n != len(models[j]) {
				t.Fatalf("op %d: queue %d has n %d, Len %d; want %d", op, j, q.n, q.Len(), len(models[j]))
			}
			for k, x := range models[j] {
				if q.at(k) != x || x.queue.Load() != q {
					t.Fatalf("op %d: queue %d position %d differs from the model", op, j, k)
				}
			}
		}
	}
}

// TestEvenOut: evening out leaves the lengths at most one apart, moves at
// least one task into an empty queue, takes the oldest tasks of the longer
// queue and keeps their order, and gives a closed queue nothing.
func TestEvenOut(t *testing.T) {
	for _, tc := range []struct {
		a, b   int
		open   bool
		moved  int
		aa, bb int
	}{
		{0, 0, true, 0, 0, 0},
		{1, 0, true, 1, 0, 1},
		{0, 1, true, 1, 1, 0},
		{2, 0, true, 1, 1, 1},
		{3, 0, true, 1, 2, 1},
		{9, 2, true, 3, 6, 5},
		{5, 4, true, 0, 5, 4},
		{4, 0, false, 0, 4, 0},
	} {
		a, b := &lockedQueue{rank: 7, open: true}, &lockedQueue{rank: 3, open: tc.open}
		var tasks []*task
		for range tc.a {
			x := new(task)
			tasks = append(tasks, x)
			a.pushBottom(x)
		}
		for range tc.b {
			b.pushBottom(new(task))
		}
		if got := evenOut(a, b); got != tc.moved || a.n != tc.aa || b.n != tc.bb {
			t.Errorf("evenOut(%d, %d tasks, open %v) moved %d, leaving %d and %d; want %d, leaving %d and %d",
				tc.a, tc.b, tc.open, got, a.n, b.n, tc.moved, tc.aa, tc.bb)
		}
		if tc.a > tc.b && tc.moved > 0 {
			for k := range tc.moved {
				if b.at(k) != tasks[k] {
					t.Errorf("evenOut(%d, %d tasks): the receiver's task %d is not the giver's %d-th oldest", tc.a, tc.b, k, k)
				}
			}
		}
	}
}

// TestEvenOutLockOrder: evenOut locks the queue of lower rank first,
// whichever is the caller's: with the higher one held elsewhere it holds
// the lower while it waits, and with the lower one held it waits without
// holding the higher.
func TestEvenOutLockOrder(t *testing.T) {
	low, high := &lockedQueue{rank: 1, open: true}, &lockedQueue{rank: 2, open: true}
	locked := func(q *lockedQueue) bool {
		if q.mu.TryLock() {
			q.mu.Unlock()
			return false
		}
		return true
	}
	for _, tc := range []struct {
		name     string
		a, b     *lockedQueue
		held     *lockedQueue
		lockedIn *lockedQueue // locked by evenOut while it waits for held
	}{
		{"own low, victim high held", low, high, high, low},
		{"own high, victim low held", high, low, low, nil},
		{"own high held, victim low", low, high, high, low},
		{"own low held, victim high", high, low, low, nil},
	} {
		tc.held.mu.Lock()
		done := make(chan struct{})
		gid := make(chan uint64, 1)
		go func() {
			defer close(done)
			gid <- goroutineID()
			evenOut(tc.a, tc.b)
		}()
		// Once evenOut's goroutine is parked on a mutex, it is the held one (nothing
		// else locks the other until then), and it has taken any lock it takes first.
		waitParkedOnMutex(t, <-gid)
		other := low
		if tc.held == low {
			other = high
		}
		if got := locked(other); got != (tc.lockedIn != nil) {
			t.Errorf("%s: while evenOut waits, the queue of rank %d locked = %v; want %v", tc.name, other.rank, got, tc.lockedIn != nil)
		}
		tc.held.mu.Unlock()
		<-done
	}
}

// TestEvenOutNoDeadlock: 16 goroutines evening out random pairs of 8 queues,
// in both argument orders, while owners push and pop, finish.
func TestEvenOutNoDeadlock(t *testing.T) {
	qs := make([]*lockedQueue, 8)
	for i := range qs {
		qs[i] = &lockedQueue{rank: i, open: true}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		for g := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(g), 9))
				for range 20000 {
					a, b := qs[rng.IntN(len(qs))], qs[rng.IntN(len(qs))]
					switch {
					case a == b:
						a.mu.Lock()
						if rng.IntN(2) == 0 {
							a.pushBottom(new(task))
						} else {
							a.popBottom()
						}
						a.mu.Unlock()
					default:
						evenOut(a, b)
					}
				}
			}()
		}
		wg.Wait()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("evening out queues did not finish in a minute: deadlock")
	}
}

// goroutineID returns the calling goroutine's id, as runtime.Stack prints it.
func goroutineID() uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := strings.Fields(string(buf)) // "goroutine 18 [running]:"
	id, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		panic("goroutineID: " + string(buf))
	}
	return id
}

// waitParkedOnMutex returns once goroutine id is parked in sync.Mutex.Lock, as
// runtime.Stack reports it: an event, however long the goroutine takes to get
// there. A goroutine that exits instead fails the test.
func waitParkedOnMutex(t *testing.T, id uint64) {
	t.Helper()
	head := fmt.Sprintf("goroutine %d [", id)
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n == len(buf) {
			buf = make([]byte, 2*len(buf))
			continue
		}
		all := string(buf[:n])
		i := strings.Index(all, head)
		if i < 0 {
			t.Fatalf("goroutine %d exited without waiting for a mutex", id)
		}
		if strings.HasPrefix(all[i+len(head):], "sync.Mutex.Lock") {
			return
		}
		runtime.Gosched()
	}
}
