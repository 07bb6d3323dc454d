package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/engine"
)

// readReplies loads the replies named on the command line: files, "-"
// for standard input, or directories (their regular files, hidden ones
// aside, in name order). No name at all reads standard input. A reply
// larger than limit bytes (when limit > 0) is refused before more than
// limit+1 bytes of it are read.
func readReplies(names []string, stdin io.Reader, limit int64) ([]engine.Input, error) {
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
			data, err := readLimited(stdin, limit)
			if errors.Is(err, engine.ErrTooLarge) {
				return nil, replyTooLarge("on standard input", limit)
			}
			if err != nil {
				return nil, usageError("reading standard input: %v", err)
			}
			out = append(out, engine.Input{Source: "-", Text: string(data)})
			continue
		}
		fi, err := os.Stat(name)
		if err != nil {
			return nil, usageError("cannot read reply: %v", err)
		}
		if !fi.IsDir() {
			in, err := readFile(name, limit)
			if err != nil {
				return nil, err
			}
			out = append(out, in)
			continue
		}
		entries, err := os.ReadDir(name)
		if err != nil {
			return nil, usageError("cannot read replies: %v", err)
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		n := 0
		for _, e := range entries {
			if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			in, err := readFile(filepath.Join(name, e.Name()), limit)
			if err != nil {
				return nil, err
			}
			out = append(out, in)
			n++
		}
		if n == 0 {
			return nil, usageError("no reply files in directory %s", name)
		}
	}
	return out, nil
}

func readFile(name string, limit int64) (engine.Input, error) {
	f, err := os.Open(name)
	if err != nil {
		return engine.Input{}, usageError("cannot read reply: %v", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && limit > 0 && fi.Size() > limit {
		return engine.Input{}, replyTooLarge(name, limit)
	}
	data, err := readLimited(f, limit)
	if errors.Is(err, engine.ErrTooLarge) {
		return engine.Input{}, replyTooLarge(name, limit)
	}
	if err != nil {
		return engine.Input{}, usageError("cannot read reply: %v", err)
	}
	return engine.Input{Source: name, Text: string(data)}, nil
}

// readLimited reads r to its end, or fails with engine.ErrTooLarge
// after limit+1 bytes (limit <= 0: no limit).
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		return io.ReadAll(r)
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, engine.ErrTooLarge
	}
	return data, err
}
