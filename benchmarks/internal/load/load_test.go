package load_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/load"
)

func TestSpan(t *testing.T) {
	var s load.Span
	if got := s.Cores(); got != -1 {
		t.Errorf("empty Span: Cores() = %g; want -1", got)
	}
	a := load.Take()
	time.Sleep(30 * time.Millisecond)
	s.Add(a, load.Take())
	if got := s.Cores(); got != -1 {
		t.Errorf("Cores() over 30 ms = %g; want -1: too short to tell", got)
	}
	a = load.Take()
	time.Sleep(load.MinSpan)
	s.Add(a, load.Take())
	if c := s.Cores(); c != -1 && (c < 0 || c > float64(runtime.NumCPU())+1) {
		t.Errorf("Cores() = %g; want -1 or within [0, NumCPU]", c)
	}
	var bad load.Span
	bad.Add(load.Sample{}, load.Take())
	if got := bad.Cores(); got != -1 {
		t.Errorf("Span with an unmeasured interval: Cores() = %g; want -1", got)
	}
}
