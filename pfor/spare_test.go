package pfor

import (
	"sync"
	"testing"
)

// TestSpareHandsOutEachObjectOnce checks that objects kept by a spare go
// to one getter at a time, with goroutines getting and putting at once,
// and that a goroutine's put is what its next get returns.
func TestSpareHandsOutEachObjectOnce(t *testing.T) {
	s := spare[int]{new: func() *int { return new(int) }}
	p := s.get()
	s.put(p)
	if q := s.get(); q != p {
		t.Fatalf("get after put returned %p; want the object put, %p", q, p)
	}
	if q := s.get(); q == p {
		t.Fatalf("a second get returned the object the first holds, %p", p)
	}
	s.put(p)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				p := s.get()
				*p = g*1000000 + i // a getter writes its object alone: -race and the check below see sharing
				for range 10 {
					if *p != g*1000000+i {
						t.Errorf("an object was handed to two getters at once")
						return
					}
				}
				s.put(p)
			}
		})
	}
	wg.Wait()
}
