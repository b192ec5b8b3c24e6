package pfor

import (
	"encoding/binary"
	"syscall"
	"unsafe"
)

// runqueueWait returns how long the process's threads have waited in the
// run queue for a core so far, in ns: the sum over /proc/self/task of the
// second field of each thread's schedstat. It reports false if the waits
// cannot be read. It allocates nothing (a call that looks must not show
// allocations it did not make) and takes about 35 µs with a few threads.
func runqueueWait() (int64, bool) {
	dir, err := openat(atFDCWD, taskDir)
	if err != nil {
		return 0, false
	}
	defer syscall.Close(dir)
	var ents [4096]byte
	var path [64]byte // "<tid>/schedstat\x00"
	var line [128]byte
	var sum int64
	found := false
	for {
		n, err := syscall.Getdents(dir, ents[:])
		if err != nil || n <= 0 {
			break
		}
		// linux_dirent64: ino u64, off i64, reclen u16, type u8, name NUL-terminated.
		for at := 0; at+19 < n; {
			reclen := int(binary.NativeEndian.Uint16(ents[at+16:]))
			if reclen <= 0 {
				break
			}
			name := ents[at+19 : min(at+reclen, n)]
			at += reclen
			k := 0
			for k < len(name) && name[k] != 0 {
				k++
			}
			if k == 0 || name[0] == '.' || k+len(schedstat) > len(path) {
				continue
			}
			copy(path[:], name[:k])
			copy(path[k:], schedstat)
			fd, err := openat(uintptr(dir), path[:k+len(schedstat)])
			if err != nil {
				continue // the thread has exited
			}
			m := read(fd, line[:])
			syscall.Close(fd)
			if m <= 0 {
				continue
			}
			if w, ok := secondField(line[:m]); ok {
				sum += w
				found = true
			}
		}
	}
	return sum, found
}

var (
	taskDir   = []byte("/proc/self/task\x00")
	schedstat = []byte("/schedstat\x00")
)

// atFDCWD is AT_FDCWD, -100, as openat takes it.
const atFDCWD = ^uintptr(99)

// openat opens the NUL-terminated path, relative to the directory dir, for
// reading, without allocating (syscall.Open copies its path to the heap).
func openat(dir uintptr, path []byte) (int, error) {
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, dir, uintptr(unsafe.Pointer(&path[0])),
		syscall.O_RDONLY|syscall.O_CLOEXEC, 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(fd), nil
}

// read reads from fd into b and returns how many bytes it read, or -1. It
// is syscall.Read without the race detector's note of the write to b,
// which would move b to the heap in race-enabled builds.
func read(fd int, b []byte) int {
	n, _, errno := syscall.Syscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return -1
	}
	return int(n)
}

// secondField parses the second space-separated decimal field of b.
func secondField(b []byte) (int64, bool) {
	i := 0
	for i < len(b) && b[i] != ' ' {
		i++
	}
	i++
	var v int64
	digits := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + int64(b[i]-'0')
		digits++
	}
	return v, digits > 0
}
