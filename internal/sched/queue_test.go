package sched

import (
	"sync"
	"testing"
)

// TestQueueFIFO: elements come out in the order they went in, across the
// compaction of a long backlog, and an empty queue returns nil.
func TestQueueFIFO(t *testing.T) {
	var q Queue[int]
	vals := make([]int, 5000)
	next := 0
	for i := range vals {
		vals[i] = i
		q.Push(&vals[i])
		if i%3 == 0 { // keep a growing backlog so that Pop compacts
			if got := q.Pop(); got == nil || *got != next {
				t.Fatalf("Pop = %v; want %d", got, next)
			}
			next++
		}
	}
	for ; next < len(vals); next++ {
		if got := q.Pop(); got == nil || *got != next {
			t.Fatalf("Pop = %v; want %d", got, next)
		}
	}
	if got := q.Pop(); got != nil || q.Len() != 0 {
		t.Fatalf("empty queue: Pop = %v, Len = %d; want nil, 0", got, q.Len())
	}
}

// TestQueueConcurrentExactlyOnce: with 4 producers and 4 consumers, every
// element pushed is popped exactly once.
func TestQueueConcurrentExactlyOnce(t *testing.T) {
	const producers, per = 4, 5000
	var q Queue[int]
	vals := make([]int, producers*per)
	seen := make([]int32, len(vals))
	var pwg, cwg sync.WaitGroup
	var mu sync.Mutex
	done := make(chan struct{})
	for p := range producers {
		pwg.Add(1)
		go func() {
			defer pwg.Done()
			for i := p * per; i < (p+1)*per; i++ {
				vals[i] = i
				q.Push(&vals[i])
			}
		}()
	}
	for range 4 {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			for {
				if x := q.Pop(); x != nil {
					mu.Lock()
					seen[*x]++
					mu.Unlock()
					continue
				}
				select {
				case <-done:
					if q.Len() == 0 {
						return
					}
				default:
				}
			}
		}()
	}
	pwg.Wait()
	close(done)
	cwg.Wait()
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("element %d popped %d times; want exactly once", i, c)
		}
	}
}
