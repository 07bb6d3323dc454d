//go:build unix

package fsread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Open and ReadFile take a regular file, give a missing one's error as
// os.Open does, and refuse a FIFO (without waiting for a writer) and a
// directory, naming the path and what it is.
func TestOpenRefusesWhatIsNoRegularFile(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg")
	if err := os.WriteFile(reg, []byte("content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want, err string
	}{
		{reg, "content\n", ""},
		{empty, "", ""},
		{filepath.Join(dir, "missing"), "", "no such file"},
		{fifo, "", fifo + " is a FIFO, not a regular file"},
		{dir, "", dir + " is a directory, not a regular file"},
	} {
		data, err := ReadFile(c.path)
		switch {
		case c.err == "" && (err != nil || string(data) != c.want):
			t.Errorf("ReadFile(%s) = %q, %v; want %q", c.path, data, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ReadFile(%s): %v; want %q", c.path, err, c.err)
		}
		if strings.Contains(c.err, "not a regular file") != errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s): errors.Is(%v, ErrNotRegular) = %v", c.path, err, errors.Is(err, ErrNotRegular))
		}
		if c.err == "no such file" && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadFile(%s): %v is not fs.ErrNotExist", c.path, err)
		}
		f, fi, err := Open(c.path)
		if (err == nil) != (c.err == "") {
			t.Errorf("Open(%s): %v", c.path, err)
		}
		if err == nil {
			if fi.Size() != int64(len(c.want)) {
				t.Errorf("Open(%s): size %d", c.path, fi.Size())
			}
			f.Close()
		}
	}
}
