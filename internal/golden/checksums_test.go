package golden

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseChecksums(t *testing.T) {
	in := "# comment\n\nsaxpy 10 0x1f # trailing\ntiny  1000 42\n"
	got, err := parseChecksums("f", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Checksum{{"saxpy", 10, 0x1f}, {"tiny", 1000, 42}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseChecksums: (-want +got)\n%s", diff)
	}
}

func TestParseChecksumsRejects(t *testing.T) {
	for _, in := range []string{"saxpy 10", "saxpy 10 1 2", "saxpy ten 1", "saxpy 0 1", "saxpy 10 0xg"} {
		if _, err := parseChecksums("f", strings.NewReader(in)); err == nil || !strings.HasPrefix(err.Error(), "f:1: ") {
			t.Errorf("parseChecksums(%q): error %v; want one naming f:1", in, err)
		}
	}
}
