package sched

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stealkit/stealkit/internal/partproto"
)

// pieceRun is a splitting run for process alone: pieces of 3 items, a
// Quiet word the test sets, and a Hungry that records where it was called
// and reports true at giveAt.
type pieceRun struct {
	word   atomic.Uint64
	quiet  bool // Quiet gives the word, with calm 5
	giveAt int  // Hungry reports true at this next; 0 for never
	hungry []int
	gave   []int
}

func (r *pieceRun) Next(int) (int, int, bool)   { return 0, 0, false }
func (r *pieceRun) Counts(int) partproto.Counts { return partproto.Counts{} }
func (r *pieceRun) Stolen(int) bool             { return false }
func (r *pieceRun) Idle(int) bool               { return false }
func (r *pieceRun) Piece(int) int               { return 3 }
func (r *pieceRun) GiveBack(_, from int)        { r.gave = append(r.gave, from) }
func (r *pieceRun) Hungry(_, next int) bool {
	r.hungry = append(r.hungry, next)
	return next == r.giveAt
}
func (r *pieceRun) Quiet(int) (*atomic.Uint64, uint64) {
	if !r.quiet {
		return nil, 0
	}
	return &r.word, 5
}

// TestProcessSkipsQuietHungry: between the pieces of a range, process calls
// Hungry where the run's Quiet word has moved or gives none, and always
// before the last piece, where Hungry has work to do whatever the word; it
// gives back where Hungry says so and runs no piece after.
func TestProcessSkipsQuietHungry(t *testing.T) {
	for _, tc := range []struct {
		name   string
		quiet  bool
		moveAt int // the body moves the word when it starts the piece at moveAt; -1 for never
		giveAt int
		hungry []int // the nexts Hungry is called with
		ran    int   // items the body ran
	}{
		{"word still", true, -1, 0, []int{18}, 20},
		{"word moves", true, 9, 0, []int{12, 15, 18}, 20},
		{"no word", false, -1, 0, []int{3, 6, 9, 12, 15, 18}, 20},
		{"give back", false, -1, 12, []int{3, 6, 9, 12}, 12},
		{"give back at the last piece", true, -1, 18, []int{18}, 18},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := &pieceRun{quiet: tc.quiet, giveAt: tc.giveAt}
			run.word.Store(5)
			ran := 0
			j := &Job{Slots: 1, Run: run, split: run}
			j.Init(bodyFunc(func(_, lo, hi int) error {
				if lo == tc.moveAt {
					run.word.Add(1)
				}
				ran += hi - lo
				return nil
			}), nil)
			if err := j.process(0, 0, 20, run, nil); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(run.hungry, tc.hungry) || ran != tc.ran {
				t.Errorf("Hungry called at %v, body ran %d items; want at %v, %d items", run.hungry, ran, tc.hungry, tc.ran)
			}
			if want := tc.giveAt; want != 0 && !slices.Equal(run.gave, []int{want}) || want == 0 && run.gave != nil {
				t.Errorf("gave back from %v; want from %d (0: none)", run.gave, want)
			}
		})
	}
}
