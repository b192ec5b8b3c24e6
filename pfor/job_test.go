package pfor

import (
	"testing"
	"unsafe"
)

// TestJobLayout checks what job's doc promises: a size that is a multiple
// of a cache line, so that jobs start on one, and the body and the Job's
// fields that helpers read within the first three lines.
func TestJobLayout(t *testing.T) {
	const line = 64
	var j job
	if size := unsafe.Sizeof(j); size%line != 0 {
		t.Errorf("job is %d bytes, not a multiple of %d", size, line)
	}
	last := unsafe.Offsetof(j.Job) + unsafe.Offsetof(j.Job.Labeled) // the last field helpers read
	if unsafe.Offsetof(j.body) != 0 || last >= 3*line {
		t.Errorf("body at %d, Labeled at %d: helpers read more than three lines", unsafe.Offsetof(j.body), last)
	}
}
