package llmapply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// FuzzRecord feeds arbitrary replies and options to Resolve and
// Record: neither panics, an error is an invalid option or a moved
// branch only, and the checkout's HEAD, index and main stay as they
// are whatever Record does.
func FuzzRecord(f *testing.F) {
	f.Add(greet, "", "", false)
	f.Add("hello.py\n```\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n```\n", "diff-fenced", "loose", true)
	f.Add("--- a/hello.py\n+++ b/hello.py\n@@ -1 +1 @@\n-hello\n+bye\n", "udiff", "exact", false)
	f.Add("../x\n```\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n```\n", "auto", "format", false)
	f.Add("```sh\ngit rm hello.py\n```\n", "", "", true)
	r := scratch.New(f)
	r.Write("hello.py", "hello\n", 0o644)
	r.Commit("initial")
	r.Setenv() // Record's identity
	dir := r.Dir
	state := func() string {
		var s string
		for _, p := range []string{"index", "HEAD", "refs/heads/main"} {
			b, _ := os.ReadFile(filepath.Join(dir, ".git", p))
			s += string(b)
		}
		return s
	}
	before := state()
	repo, err := OpenRepository(dir)
	if err != nil {
		f.Fatal(err)
	}
	src := MapSource(map[string][]byte{"hello.py": []byte("hello\n"), "dir/a.txt": []byte("a\n")})
	f.Fuzz(func(t *testing.T, reply, format, fuzz string, shellOps bool) {
		o := Options{Format: format, Fuzz: fuzz, ShellOps: shellOps, Partial: shellOps}
		res, err := Resolve(context.Background(), reply, src, o)
		if err != nil {
			if !errors.Is(err, ErrInvalidOption) {
				t.Fatalf("Resolve: %v", err)
			}
			return
		}
		if res.OK() && len(res.Files) > 0 && res.Diff == "" {
			t.Fatalf("changed files without a diff: %+v", res.Report)
		}
		_ = res.Report.String()
		rec, err := repo.Record(context.Background(), reply, RecordOptions{Options: o, Branch: "llm/fuzz"})
		if err != nil && !errors.Is(err, ErrInvalidOption) {
			t.Fatalf("Record: %v", err)
		}
		if rec != nil && rec.Commit != "" && rec.Branch != "llm/fuzz" {
			t.Fatalf("recorded on %q", rec.Branch)
		}
		if state() != before {
			t.Fatal("HEAD, the index or main changed")
		}
	})
}
