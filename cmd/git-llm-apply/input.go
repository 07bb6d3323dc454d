package main

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/engine"
)

// readReplies loads the replies named on the command line: files, "-"
// for standard input, or directories (their regular files, hidden ones
// aside, in name order). No name at all reads standard input.
func readReplies(names []string, stdin io.Reader) ([]engine.Input, error) {
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
			data, err := io.ReadAll(stdin)
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
			in, err := readFile(name)
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
			in, err := readFile(filepath.Join(name, e.Name()))
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

func readFile(name string) (engine.Input, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return engine.Input{}, usageError("cannot read reply: %v", err)
	}
	return engine.Input{Source: name, Text: string(data)}, nil
}
