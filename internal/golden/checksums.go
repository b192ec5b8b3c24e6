// Package golden reads the golden files under the repository's testdata/ that
// tests of more than one package share.
package golden

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// A Checksum is one line of testdata/workloads/checksums.txt: the checksum of
// one repetition of workload Name at N items.
type Checksum struct {
	Name     string
	N        int
	Checksum uint64
}

// ReadChecksums reads the file of pinned checksums at path: lines
// "name n checksum", with # comments and blank lines. It returns an error
// naming the file and line for a line of another form, or n < 1.
func ReadChecksums(path string) ([]Checksum, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseChecksums(path, f)
}

func parseChecksums(path string, r io.Reader) ([]Checksum, error) {
	var cs []Checksum
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: %q: %d fields; want name, n and checksum", path, line, sc.Text(), len(fields))
		}
		n, err1 := strconv.Atoi(fields[1])
		sum, err2 := strconv.ParseUint(fields[2], 0, 64)
		if err1 != nil || err2 != nil || n < 1 {
			return nil, fmt.Errorf("%s:%d: %q: want a name, n >= 1 and a checksum", path, line, sc.Text())
		}
		cs = append(cs, Checksum{fields[0], n, sum})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return cs, nil
}
