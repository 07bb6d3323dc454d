package scratch

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A scratch repository's commits are the same on every machine: the
// user's config and identity do not reach them.
func TestReproducible(t *testing.T) {
	var ids []string
	for range 2 {
		r := New(t)
		r.Write("a/b.txt", "hello\n", 0o644)
		r.Write("run.sh", "#!/bin/sh\n", 0o755)
		r.Symlink("a/b.txt", "link")
		ids = append(ids, r.Commit("first"))
		if got := r.Git("log", "-1", "--format=%an <%ae> %ad|%cn <%ce> %cd", "--date=raw"); got != AuthorName+" <"+AuthorEmail+"> "+AuthorDate+"|"+CommitterName+" <"+CommitterEmail+"> "+CommitterDate {
			t.Errorf("identities: %s", got)
		}
		if got := r.Git("ls-files", "-s", "run.sh", "link"); !strings.Contains(got, "100755") || !strings.Contains(got, "120000") {
			t.Errorf("modes: %s", got)
		}
	}
	if ids[0] != ids[1] {
		t.Errorf("the same commit has ids %s and %s", ids[0], ids[1])
	}
}

// TestOnlyTests: no package but a test imports scratch.
func TestOnlyTests(t *testing.T) {
	const self = "github.com/git-llm-apply/git-llm-apply/internal/scratch"
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == self {
				t.Errorf("%s imports %s", p, self)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
