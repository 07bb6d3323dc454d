package report

import (
	"maps"
	"slices"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// memFiles is a base holding regular files, path and content in turn.
type memFiles map[string]string

func newFiles(kv ...string) memFiles {
	m := memFiles{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func (m memFiles) Lookup(p string) (engine.Entry, error) {
	d, ok := m[p]
	if !ok {
		return engine.Entry{}, engine.ErrNotExist
	}
	return engine.Entry{Mode: patch.ModeRegular, ID: patch.BlobID([]byte(d))}, nil
}

func (m memFiles) Read(p string) ([]byte, error) {
	d, ok := m[p]
	if !ok {
		return nil, engine.ErrNotExist
	}
	return []byte(d), nil
}

func (m memFiles) Paths() ([]string, error) {
	return slices.Sorted(maps.Keys(m)), nil
}
