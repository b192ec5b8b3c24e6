package pfor

// SetScanTwoPass makes Scan use the two-pass plan (on) or the chain, and
// returns what it was.
func SetScanTwoPass(on bool) bool {
	was := scanTwoPass
	scanTwoPass = on
	return was
}
