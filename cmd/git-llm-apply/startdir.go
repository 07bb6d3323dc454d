package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"
)

// startDir is the value of the -C flag, git's "run as if started in
// DIR". As in git, each -C is taken relative to the one before it
// (-C a -C b is a/b), an absolute one starts afresh, and an empty one
// changes nothing. The process never changes directory: each path the
// user gives is resolved against the result with under, so that
// commands can run in-process (tests do). base is the directory the
// command starts in (run's dir, "" for the process's own): a relative
// -C is taken from there.
type startDir struct{ base, path string }

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

// Get returns the directory as given, so that cmd.String("C") reads it
// as it read the plain string flag -C used to be.
func (d *startDir) Get() any { return d.path }

func (d *startDir) String() string { return d.path }

// at is where the command runs: base, then -C ("" for the process's
// working directory).
func (d *startDir) at() string {
	if d.path == "" {
		return d.base
	}
	return under(d.base, d.path)
}

// startOf returns where cmd runs (relative paths are read from there;
// "" for the process's working directory) and -C as the user gave it
// ("" for none), which messages and the suggested git commands name.
func startOf(cmd *cli.Command) (at, arg string) {
	for _, f := range cmd.Root().Flags {
		if g, ok := f.(*cli.GenericFlag); ok && g.Name == "C" {
			if d, ok := g.Value.(*startDir); ok {
				return d.at(), d.path
			}
		}
	}
	panic("the root command has no -C flag")
}

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
// at, where -C arg ("" for none) leads, is not a directory. Messages
// name arg, as the user gave it.
func checkStartDir(at, arg string) error {
	if arg == "" {
		return nil
	}
	fi, err := os.Stat(at)
	if err != nil {
		return usageError("cannot change to %s: %v", arg, pathErr(err))
	}
	if !fi.IsDir() {
		return usageError("cannot change to %s: not a directory", arg)
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
