package deque

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkDeque: the cost of one operation, with preallocated elements
// and a ring already grown, so the steady state allocates nothing.
//
//   - op=pushpop: the owner pushes one element and pops it back, with
//     below=0 elements under it (every Pop races thieves for the last
//     element: a CAS) or below=8 (the common case of fork-join, no CAS).
//   - op=steal: a lone thief steals from a full deque (refilled, untimed,
//     every 4096 steals).
//   - op=steal/contention=owner: the benchmark goroutine steals while
//     another goroutine owns the deque, pushing and popping; success/op is
//     the fraction of attempts that took an element.
func BenchmarkDeque(b *testing.B) {
	x := new(int)
	for _, below := range []int{0, 8} {
		b.Run(fmt.Sprintf("op=pushpop/below=%d", below), func(b *testing.B) {
			b.ReportAllocs()
			d := New[int]()
			for range below {
				d.Push(x)
			}
			for b.Loop() {
				d.Push(x)
				d.Pop()
			}
		})
	}
	b.Run("op=steal", func(b *testing.B) {
		b.ReportAllocs()
		const fill = 4096
		d := New[int]()
		for range fill {
			d.Push(x)
		}
		for b.Loop() {
			if d.Steal() == nil {
				b.StopTimer()
				for range fill {
					d.Push(x)
				}
				b.StartTimer()
			}
		}
	})
	b.Run("op=steal/contention=owner", func(b *testing.B) {
		b.ReportAllocs()
		d := New[int]()
		var stop atomic.Bool
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // the owner: keeps 0 to 8 elements in the deque
			defer wg.Done()
			for !stop.Load() {
				for range 8 {
					d.Push(x)
				}
				for range 8 {
					d.Pop()
				}
			}
		}()
		wins := 0
		for b.Loop() {
			if d.Steal() != nil {
				wins++
			}
		}
		stop.Store(true)
		wg.Wait()
		b.ReportMetric(float64(wins)/float64(b.N), "success/op")
	})
}
