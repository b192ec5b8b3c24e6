package report

import "math"

// textWidth returns an upper estimate of the width, in pixels, of s set in the report's
// sans-serif font at size px (bold or not), so that a chart can leave room for its text: the
// page has no script to measure text, and a label wider than its room is clipped at the
// svg's edge.
//
// The per-character widths, in ems, are at least those of DejaVu Sans (the widest of the
// common sans-serif fonts: Linux's default) and of Liberation Sans and Helvetica; bold text
// is about a tenth wider. TestReportInBrowser checks the estimate in a real browser.
func textWidth(s string, px float64, bold bool) float64 {
	em := 0.0
	for _, r := range s {
		em += runeWidth(r)
	}
	if bold {
		em *= 1.12
	}
	return math.Ceil(em * px)
}

// runeWidth returns the estimated width of r in ems.
func runeWidth(r rune) float64 {
	switch {
	case r == 'i' || r == 'j' || r == 'l' || r == 'I' || r == '.' || r == ',' || r == ':' || r == ';' ||
		r == '\'' || r == '|' || r == '!' || r == '`':
		return 0.34
	case r == 'f' || r == 'r' || r == 't' || r == ' ' || r == '-' || r == '/' || r == '(' || r == ')' ||
		r == '[' || r == ']' || r == '"':
		return 0.45
	case r == 'm' || r == 'w' || r == 'M' || r == 'W' || r == '%' || r == '@':
		return 1.0
	case r >= 'A' && r <= 'Z':
		return 0.8
	case r < 0x80:
		return 0.66
	default:
		return 0.72 // µ, ×, ...
	}
}
