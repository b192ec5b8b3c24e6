package deque

import (
	"math"
	"testing"
)

// FuzzDeque drives a Deque from one goroutine with a byte program and
// checks every result against a slice: each byte's low two bits choose
// Push (0, 1), Pop (2) or Steal (3). The first byte chooses the initial
// capacity (1 to 8, as a power of two) and whether the counters start
// just below the int64 wrap-around.
func FuzzDeque(f *testing.F) {
	f.Add([]byte{0, 0, 0, 2, 3, 2, 3})
	f.Add([]byte{0x80, 0, 1, 0, 1, 0, 3, 3, 2, 0, 2, 2, 2})
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 3, 2, 2})
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) == 0 {
			return
		}
		var start int64
		if prog[0]&0x80 != 0 {
			start = math.MaxInt64 - 5
		}
		d := NewAt[int](1<<(prog[0]&3), start)
		var model []int // model[0] is the top
		next := 0
		for i, op := range prog[1:] {
			switch op & 3 {
			case 0, 1:
				v := next
				next++
				d.Push(&v)
				model = append(model, v)
			case 2:
				got := d.Pop()
				if len(model) == 0 {
					if got != nil {
						t.Fatalf("op %d: Pop on empty = %d; want nil", i, *got)
					}
					continue
				}
				want := model[len(model)-1]
				model = model[:len(model)-1]
				if got == nil || *got != want {
					t.Fatalf("op %d: Pop = %v; want %d", i, got, want)
				}
			case 3:
				got := d.Steal()
				if len(model) == 0 {
					if got != nil {
						t.Fatalf("op %d: Steal on empty = %d; want nil", i, *got)
					}
					continue
				}
				want := model[0]
				model = model[1:]
				if got == nil || *got != want {
					t.Fatalf("op %d: Steal = %v; want %d", i, got, want)
				}
			}
			if d.Len() != len(model) {
				t.Fatalf("op %d: Len = %d; want %d", i, d.Len(), len(model))
			}
			if c := d.Cap(); c < len(model) || c&(c-1) != 0 {
				t.Fatalf("op %d: Cap = %d with %d elements; want a power of two at least that", i, c, len(model))
			}
		}
	})
}
