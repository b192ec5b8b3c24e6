package casestudy

import (
	"fmt"
	"math/bits"
)

// Four in a row on a 6x7 board, as bitboards (the layout of Pascal Pons's
// Connect 4 solver): column c uses bits 7c to 7c+5, bottom up, and bit
// 7c+6 stays empty so that shifts never carry a line from one column into
// the next.
const (
	rows, cols = 6, 7
	winScore   = 1_000_000 // the value of a won position, for the winner
)

// A board is a position with the player to move: own holds that player's
// stones, all holds every stone.
type board struct {
	own, all uint64
}

// canPlay reports whether column c has room.
func (b board) canPlay(c int) bool { return b.all&(1<<(7*c+rows-1)) == 0 }

// play returns the position after the player to move drops a stone in
// column c (which must have room), and whether that move won.
func (b board) play(c int) (next board, won bool) {
	all := b.all | (b.all + 1<<(7*c)) // the lowest empty cell of c fills
	mine := b.own | (all ^ b.all)
	return board{own: mine ^ all, all: all}, fourInARow(mine)
}

// fourInARow reports whether the stones p include four in a row.
func fourInARow(p uint64) bool {
	for _, d := range [...]uint{1, 6, 7, 8} { // vertical, the two diagonals, horizontal
		m := p & (p >> d)
		if m&(m>>(2*d)) != 0 {
			return true
		}
	}
	return false
}

// windows are the 69 lines of four cells on the board.
var windows = func() []uint64 {
	var ws []uint64
	cell := func(c, r int) uint64 { return 1 << (7*c + r) }
	for c := range cols {
		for r := range rows {
			for _, d := range [...][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				var w uint64
				for k := range 4 {
					cc, rr := c+k*d[0], r+k*d[1]
					if cc < 0 || cc >= cols || rr < 0 || rr >= rows {
						w = 0
						break
					}
					w |= cell(cc, rr)
				}
				if w != 0 {
					ws = append(ws, w)
				}
			}
		}
	}
	return ws
}()

// centre is the middle column, which is worth holding.
const centre = uint64(1<<rows-1) << (7 * 3)

// evaluate scores a position for the player to move, who has not lost:
// for each line of four holding stones of one player only, 2 points for
// two of them, 5 for three, plus 1 per stone in the centre column; the
// opponent's points count negative. It looks at all 69 lines, about the
// work of a leaf of a real engine.
func (b board) evaluate() int {
	own, opp := b.own, b.own^b.all
	score := bits.OnesCount64(own&centre) - bits.OnesCount64(opp&centre)
	for _, w := range windows {
		mo, op := w&own, w&opp
		switch {
		case op == 0:
			score += lineScore[bits.OnesCount64(mo)]
		case mo == 0:
			score -= lineScore[bits.OnesCount64(op)]
		}
	}
	return score
}

var lineScore = [5]int{0, 0, 2, 5, 0}

// midGame is the case study's fixed position: 12 moves into a game (in
// columns 0 to 6), nobody has won, the columns fill unevenly.
var midGame = []int{3, 3, 2, 4, 4, 2, 5, 1, 3, 2, 6, 4}

// position plays moves from the empty board.
func position(moves []int) board {
	var b board
	for i, c := range moves {
		if !b.canPlay(c) {
			panic(fmt.Sprintf("casestudy: move %d: column %d is full", i, c))
		}
		var won bool
		if b, won = b.play(c); won {
			panic(fmt.Sprintf("casestudy: move %d in column %d wins", i, c))
		}
	}
	return b
}

// String draws the board, the player to move as X.
func (b board) String() string {
	s := ""
	for r := rows - 1; r >= 0; r-- {
		for c := range cols {
			switch bit := uint64(1) << (7*c + r); {
			case b.own&bit != 0:
				s += "X"
			case b.all&bit != 0:
				s += "O"
			default:
				s += "."
			}
		}
		s += "\n"
	}
	return s
}
