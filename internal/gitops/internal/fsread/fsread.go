// Package fsread opens the files of a repository for reading without
// ever waiting: a FIFO, a socket or a device where git keeps a regular
// file (a loose object, a pack, the index, a config file, a ref) is
// refused by name, never read, and opening it does not block (SPEC
// section 5). Every file the tool reads inside a repository is opened
// here; the reply files, which are the user's arguments, are not.
package fsread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular: a file of the repository is not a regular file. The
// error that carries it is a *NotRegularError naming the path and what
// it is.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is a file of the repository that is something other
// than a regular file: "objects/ab/cdef... is a FIFO, not a regular
// file".
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Kind(e.Mode))
}

// Is makes errors.Is(err, ErrNotRegular) hold.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Kind says what a file of mode m is, with its article: "a FIFO", "a
// directory", "a socket", "a character device", "a block device".
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// Open opens the file name for reading as git's storage is read: with
// O_NONBLOCK where the system has it, so that a FIFO put in a regular
// file's place opens at once instead of waiting for a writer, and then
// looked at through the open file (fstat), so that what was checked is
// what is read. Anything but a regular file is closed and refused
// with a *NotRegularError. The error of the open itself comes back as
// os.Open gives it (errors.Is(err, fs.ErrNotExist) for a missing
// file). O_NONBLOCK changes nothing for a regular file's reads.
func Open(name string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: name, Mode: fi.Mode()}
	}
	return f, fi, nil
}

// ReadFile is os.ReadFile through Open: the whole of a regular file,
// or an error.
func ReadFile(name string) ([]byte, error) {
	f, fi, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Room for the size seen and a byte more, so that a file of the
	// size it was read to its end in one buffer; one grown since is
	// read on, as os.ReadFile reads it.
	data := make([]byte, 0, fi.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
