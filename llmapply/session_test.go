package llmapply

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWorktreeFollowsRecordAndUndo: a branch a linked worktree has
// checked out is recorded on and taken back with that worktree named,
// the worktree brought along each time; a file changed there stops the
// update with a WorktreeChangesError naming it. Trailers end the
// message, and CommitsWithTrailer finds the commits by them.
func TestWorktreeFollowsRecordAndUndo(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	t.Setenv("GIT_AUTHOR_NAME", "A")
	t.Setenv("GIT_AUTHOR_EMAIL", "a@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "C")
	t.Setenv("GIT_COMMITTER_EMAIL", "c@example.com")
	git("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "hello.py"), []byte("hello\n"), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "initial")
	repo, err := OpenRepository(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := repo.Record(ctx, greet, RecordOptions{Branch: "llm/greet", Trailers: []string{"LLM-MCP-Branch: llm/greet"}})
	if err != nil || first.Commit == "" {
		t.Fatalf("%v %+v", err, first)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	if err := repo.AddWorktree(context.Background(), wt, "llm/greet"); err != nil {
		t.Fatal(err)
	}
	linked, ok := repo.LinkedWorktree("llm/greet")
	if !ok || filepath.Base(linked) != "wt" {
		t.Fatalf("LinkedWorktree = %q %v", linked, ok)
	}
	if _, err := repo.Record(ctx, strings.ReplaceAll(greet, "hello, world", "bye"), RecordOptions{Branch: "llm/greet"}); err == nil {
		t.Fatal("a branch checked out in a worktree not named was recorded on")
	}
	second, err := repo.Record(ctx, strings.NewReplacer("hello, world", "bye", "hello\n", "hello, world\n").Replace(greet),
		RecordOptions{Branch: "llm/greet", Worktree: linked, Trailers: []string{"LLM-MCP-Branch: llm/greet"}})
	if err != nil || second.Commit == "" {
		t.Fatalf("%v %+v", err, second)
	}
	if err := repo.UpdateWorktree(context.Background(), linked, first.Commit, second.Commit); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "hello.py")); string(data) != "bye\n" {
		t.Fatalf("worktree: %q", data)
	}
	tip, commits, err := repo.CommitsWithTrailer("llm/greet", "LLM-MCP-Branch", "llm/greet")
	if err != nil || tip != second.Commit || len(commits) != 2 || commits[0].ID != first.Commit || commits[1].Parent != first.Commit {
		t.Fatalf("CommitsWithTrailer: %s %+v %v", tip, commits, err)
	}
	if files, err := repo.CommitFiles(second.Commit); err != nil || len(files) != 1 || files[0] != (FileStat{Status: "M", Path: "hello.py", Added: 1, Deleted: 1}) {
		t.Errorf("CommitFiles: %+v %v", files, err)
	}
	// A manual fix there: undo moves the branch, the update names it.
	os.WriteFile(filepath.Join(wt, "hello.py"), []byte("fixed\n"), 0o644)
	parent, err := repo.UndoIn("llm/greet", second.Commit, linked)
	if err != nil || parent != first.Commit {
		t.Fatalf("UndoIn: %v %s", err, parent)
	}
	var wc *WorktreeChangesError
	if err := repo.UpdateWorktree(context.Background(), linked, second.Commit, parent); !errors.As(err, &wc) || !slices.Equal(wc.Paths, []string{"hello.py"}) {
		t.Fatalf("update over a manual fix: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "hello.py")); string(data) != "fixed\n" {
		t.Fatalf("the fix was overwritten: %q", data)
	}
	if _, err := repo.Undo("llm/greet", parent); err == nil {
		t.Error("Undo of a branch checked out in a worktree not named")
	}
}

// TestReadFile: a source's file by its path, refused as an edit's path
// is when it leaves the source.
func TestReadFile(t *testing.T) {
	src := MapSource(map[string][]byte{"a/b.txt": []byte("b\n")})
	if data, err := src.ReadFile("a/b.txt"); err != nil || string(data) != "b\n" {
		t.Errorf("ReadFile: %q %v", data, err)
	}
	if _, err := src.ReadFile("a/none.txt"); !errors.Is(err, ErrNoFile) {
		t.Errorf("missing file: %v", err)
	}
	for _, p := range []string{"../a/b.txt", "/a/b.txt", ".git/config", "a/../../x", "", "a/"} {
		if _, err := src.ReadFile(p); err == nil || errors.Is(err, ErrNoFile) {
			t.Errorf("%q: %v", p, err)
		}
	}
}
