package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
)

// readReplies loads the replies named on the command line: files, "-"
// for standard input, or directories (their regular files, hidden ones
// aside, in name order). No name at all reads standard input. A reply
// larger than limit bytes (when limit > 0) is refused before more than
// limit+1 bytes of it are read. Names are relative to dir (-C; "" for
// the current directory), and each reply's Source is its name as given.
func readReplies(dir string, names []string, stdin io.Reader, limit int64) ([]engine.Input, error) {
	if len(names) == 0 {
		names = []string{"-"}
	}
	var out []engine.Input
	usedStdin := false
	for _, name := range names {
		if name == "-" {
			if usedStdin {
				return nil, usageError(`standard input ("-") can be read only once`)
			}
			usedStdin = true
			text, err := readLimited(stdin, limit, regularSize(stdin))
			if errors.Is(err, engine.ErrTooLarge) {
				return nil, replyTooLarge("on standard input", limit)
			}
			if err != nil {
				return nil, usageError("reading standard input: %v", err)
			}
			out = append(out, engine.Input{Source: "-", Text: text})
			continue
		}
		at := under(dir, name)
		fi, err := os.Stat(at)
		if err != nil {
			return nil, usageError("cannot read reply %s: %v", name, pathErr(err))
		}
		if !fi.IsDir() {
			in, err := readFile(at, name, limit)
			if err != nil {
				return nil, err
			}
			out = append(out, in)
			continue
		}
		files, err := replyFiles(at, name)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			in, err := readFile(f.path, f.name, limit)
			if err != nil {
				return nil, err
			}
			out = append(out, in)
		}
	}
	return out, nil
}

// replyFile is a reply file of a directory: where it is, and its name
// as the user would write it (the directory as given, then the file).
type replyFile struct{ path, name string }

// replyFiles lists the replies of the directory at, which the user
// named name: its regular files, hidden ones aside, in name order. A
// directory with none is a usage error.
func replyFiles(at, name string) ([]replyFile, error) {
	entries, err := os.ReadDir(at)
	if err != nil {
		return nil, usageError("cannot read replies in %s: %v", name, pathErr(err))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []replyFile
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		out = append(out, replyFile{filepath.Join(at, e.Name()), filepath.Join(name, e.Name())})
	}
	if len(out) == 0 {
		return nil, usageError("no reply files in directory %s", name)
	}
	return out, nil
}

// readFile reads the reply at path, which the user named name.
func readFile(path, name string, limit int64) (engine.Input, error) {
	f, err := os.Open(path)
	if err != nil {
		return engine.Input{}, usageError("cannot read reply %s: %v", name, pathErr(err))
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	text, err := readLimited(f, limit, size)
	if errors.Is(err, engine.ErrTooLarge) {
		return engine.Input{}, replyTooLarge(name, limit)
	}
	if err != nil {
		return engine.Input{}, usageError("cannot read reply %s: %v", name, pathErr(err))
	}
	return engine.Input{Source: name, Text: text}, nil
}

// regularSize is what is left to read of r when it is a regular file
// (standard input redirected from one), else 0.
func regularSize(r io.Reader) int64 {
	f, ok := r.(*os.File)
	if !ok {
		return 0
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	return max(0, fi.Size()-at)
}

// readLimited reads r to its end, or fails with engine.ErrTooLarge
// after limit+1 bytes (limit <= 0: no limit), or at once when size,
// what r holds if known, is over it. The text is built where it is
// read, never copied again into a string: into one buffer of the size
// known, else into pieces joined once at the end (a buffer grown as it
// fills leaves its old copies behind, 3 times the reply in all).
func readLimited(r io.Reader, limit, size int64) (string, error) {
	if limit > 0 && size > limit {
		return "", engine.ErrTooLarge
	}
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
	}
	var b strings.Builder
	if size > 0 {
		b.Grow(int(size) + 1) // +1: the read that finds the end
		if _, err := io.Copy(&b, r); err != nil {
			return "", err
		}
	} else {
		var pieces [][]byte
		total := 0
		for {
			piece := make([]byte, 1<<20)
			n, err := io.ReadFull(r, piece)
			pieces, total = append(pieces, piece[:n]), total+n
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				break
			}
			if err != nil {
				return "", err
			}
		}
		if limit > 0 && int64(total) > limit {
			return "", engine.ErrTooLarge
		}
		b.Grow(total)
		for _, p := range pieces {
			b.Write(p)
		}
	}
	if limit > 0 && int64(b.Len()) > limit {
		return "", engine.ErrTooLarge
	}
	return b.String(), nil
}
