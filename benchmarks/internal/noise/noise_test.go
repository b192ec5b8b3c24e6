package noise_test

import (
	"os"
	"testing"
	"time"

	"github.com/stealkit/stealkit/benchmarks/internal/noise"
)

func TestMain(m *testing.M) {
	noise.MaybeBurn() // the test binary is re-executed as the burner
	os.Exit(m.Run())
}

func TestBurnerBurnsAndStops(t *testing.T) {
	b, err := noise.Start()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	time.Sleep(200 * time.Millisecond)
	if err := b.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	// The burner shares 2 cores with the test run and whatever else runs: ask only that it
	// was busy for a good part of its life.
	if c := b.Cores(); c < 0.1 || c > 1.5 {
		t.Errorf("burner used %.2f cores; want about 1", c)
	}
}
