package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// startDir is the value of the -C flag, git's "run as if started in
// DIR". As in git, each -C is taken relative to the one before it
// (-C a -C b is a/b), an absolute one starts afresh, and an empty one
// changes nothing. The process never changes directory: each path the
// user gives is resolved against the result with under, so that
// commands can run in-process (tests do).
type startDir struct{ path string }

func (d *startDir) Set(s string) error {
	switch {
	case s == "":
	case d.path == "" || filepath.IsAbs(s):
		d.path = s
	default:
		d.path = under(d.path, s)
	}
	return nil
}

// Get returns the directory as a string, so that cmd.String("C") reads
// it as it read the plain string flag -C used to be.
func (d *startDir) Get() any { return d.path }

func (d *startDir) String() string { return d.path }

// under returns path p as a process started in dir would see it: p
// itself when it is absolute (or dir is ""), else p under dir. The two
// are joined, not cleaned: the system then reads a ".." of p from
// where dir really leads, through its symbolic links, as it does after
// git's chdir.
func under(dir, p string) string {
	if dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return dir + string(filepath.Separator) + p
}

// checkStartDir fails, as git does for a -C it cannot change to, when
// dir ("" for none) is not a directory.
func checkStartDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return usageError("cannot change to %s: %v", dir, pathErr(err))
	}
	if !fi.IsDir() {
		return usageError("cannot change to %s: not a directory", dir)
	}
	return nil
}

// pathErr is what went wrong with a path, without the path: the
// message then names it as the user wrote it, not as it was resolved.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
