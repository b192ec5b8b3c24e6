package partition

import "testing"

// TestPiecesHoldTheFloor: where the floor, minPiece, sizes the pieces of a
// range, the range is cut into no more pieces than it holds of the floor's
// items, and each piece but the last holds the floor at least; elsewhere a
// piece is the most that the time and maxPiece allow. Pieces of exactly the
// floor would end most ranges in a shorter piece, below it.
func TestPiecesHoldTheFloor(t *testing.T) {
	for _, workers := range []int{2, 4, 8, 16, 64} {
		minPiece := pieceBudget / float64(workers)
		for _, perItem := range []float64{0.7, 3, 10, 15.6, 41, 300} {
			for _, maxPiece := range []uint64{1, 3, 256} {
				for n := 2; n <= 3000; n++ {
					p := pieceSize(n, perItem, minPiece, maxPiece, workers)
					if p < 1 || p > n {
						t.Fatalf("pieceSize(%d, %g, %g, %d, %d) = %d; want 1 to %d", n, perItem, minPiece, maxPiece, workers, p, n)
					}
					least := int(minPiece/perItem) + 1
					most := int(min(maxPieceTime/perItem+1, float64(maxPiece)))
					pieces := (n + p - 1) / p
					switch {
					case float64(n)*perItem <= minPiece:
						if p != n {
							t.Fatalf("pieceSize(%d, %g, %g, %d, %d) = %d; want the whole range, under the floor", n, perItem, minPiece, maxPiece, workers, p)
						}
					case most >= least:
						if p != min(most, n) {
							t.Fatalf("pieceSize(%d, %g, %g, %d, %d) = %d; want %d", n, perItem, minPiece, maxPiece, workers, p, min(most, n))
						}
					case p < least || pieces > max(n/least, 1):
						t.Fatalf("pieceSize(%d, %g, %g, %d, %d) = %d: %d pieces; want pieces of %d items at least, %d at most",
							n, perItem, minPiece, maxPiece, workers, p, pieces, least, max(n/least, 1))
					}
				}
			}
		}
	}
}
