package gitops

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// staged describes a StagedFile and its content, for comparing.
type staged struct {
	Path    string
	Mode    patch.Mode
	Content string
}

func stagedOf(t *testing.T, tr *testRepo, r *Repo) []staged {
	t.Helper()
	files, err := r.StagedFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []staged
	for _, f := range files {
		data, err := f.Read()
		if err != nil {
			t.Fatalf("Read(%s): %v", f.Path, err)
		}
		if want := tr.git("rev-parse", ":"+f.Path); f.ID != want {
			t.Errorf("%s: ID %s, want %s", f.Path, f.ID, want)
		}
		out = append(out, staged{f.Path, f.Mode, string(data)})
	}
	return out
}

func TestStagedFiles(t *testing.T) {
	t.Parallel()
	tr := stagedRepo(t) // a.txt staged and changed again, dir/b.txt +x, new.txt added, ab.txt removed, ita.txt add -N
	tr.write("run.sh", "#!/bin/sh\necho staged\n", 0o755)
	tr.git("add", "run.sh")
	// Type changes: a symlink becomes a file, a file a symlink.
	tr.git("rm", "-q", "--cached", "link")
	tr.gitEnv(tr.dir, nil, "", "update-index", "--add", "--cacheinfo",
		"100644,"+tr.gitEnv(tr.dir, nil, "now a file\n", "hash-object", "-w", "--stdin")+",link")
	tr.gitEnv(tr.dir, nil, "", "update-index", "--add", "--cacheinfo",
		"120000,"+tr.gitEnv(tr.dir, nil, "a.txt", "hash-object", "-w", "--stdin")+",other/x.txt")
	// A new symlink and a submodule moved to another commit.
	tr.symlink("run.sh", "newlink")
	tr.git("add", "newlink")
	tr.git("update-index", "--cacheinfo", "160000,"+tr.git("rev-parse", "HEAD")+",subm")
	// A path in conflict.
	var info strings.Builder
	for stage, content := range []string{"base\n", "ours\n", "theirs\n"} {
		blob := tr.gitEnv(tr.dir, nil, content, "hash-object", "-w", "--stdin")
		fmt.Fprintf(&info, "100644 %s %d\tdir/sub/c.txt\n", blob, stage+1)
	}
	tr.git("update-index", "--force-remove", "dir/sub/c.txt")
	tr.gitEnv(tr.dir, nil, info.String(), "update-index", "--index-info")

	got := stagedOf(t, tr, tr.open(tr.dir))
	want := []staged{
		{"a.txt", reg, "staged\n"},
		{"dir/b.txt", exe, "b\n"},
		{"link", reg, "now a file\n"},
		{"new.txt", reg, "new\n"},
		{"run.sh", exe, "#!/bin/sh\necho staged\n"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StagedFiles (-want +got):\n%s", diff)
	}
}

func TestStagedFilesNone(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.write("a.txt", "only in the working tree\n", 0o644)
	files, err := tr.open(tr.dir).StagedFiles(context.Background())
	if err != nil || len(files) != 0 {
		t.Errorf("StagedFiles() = %v, %v; want none", files, err)
	}
}

func TestStagedFilesUnbornBranch(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	tr.write("a.txt", "a\n", 0o644)
	tr.write("d/b.sh", "b\n", 0o755)
	tr.symlink("a.txt", "l")
	tr.git("add", "-A")
	got := stagedOf(t, tr, tr.open(tr.dir))
	want := []staged{{"a.txt", reg, "a\n"}, {"d/b.sh", exe, "b\n"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StagedFiles (-want +got):\n%s", diff)
	}
}

// TestStagedFilesHonoursGitIndexFile: during `git commit -a` a
// pre-commit hook sees a temporary index, named by GIT_INDEX_FILE.
func TestStagedFilesHonoursGitIndexFile(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	alt := filepath.Join(t.TempDir(), "alt-index")
	env := []string{"GIT_INDEX_FILE=" + alt}
	tr.gitEnv(tr.dir, env, "", "read-tree", "HEAD")
	tr.write("dir/b.txt", "in the other index\n", 0o644)
	tr.gitEnv(tr.dir, env, "", "add", "dir/b.txt")
	tr.git("reset", "-q") // the default index stays as HEAD
	r := tr.open(tr.dir)
	r.env = lookupIn(append(tr.env, env...))
	got := stagedOf(t, tr.withEnv(env), r)
	want := []staged{{"dir/b.txt", reg, "in the other index\n"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StagedFiles (-want +got):\n%s", diff)
	}
}

// withEnv returns a copy of tr whose git commands also get env.
func (tr *testRepo) withEnv(env []string) *testRepo {
	c := *tr
	c.env = append(append([]string(nil), tr.env...), env...)
	return &c
}

func TestStagedFilesFromLinkedWorktree(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	wt := filepath.Join(t.TempDir(), "wt")
	tr.git("worktree", "add", "-q", "-b", "side", wt)
	if err := scratch.WriteFile(filepath.Join(wt, "a.txt"), "in the worktree\n"); err != nil {
		t.Fatal(err)
	}
	tr.gitAt(wt, "add", "a.txt")
	files, err := tr.open(wt).StagedFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "a.txt" {
		t.Fatalf("StagedFiles() = %v, want a.txt", files)
	}
	if data, err := files[0].Read(); err != nil || string(data) != "in the worktree\n" {
		t.Errorf("Read() = %q, %v", data, err)
	}
	if files, err := tr.open(tr.dir).StagedFiles(context.Background()); err != nil || len(files) != 0 {
		t.Errorf("main worktree: StagedFiles() = %v, %v; want none", files, err)
	}
}

func TestCheckAttr(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.write(".gitattributes", "*.md llm-apply-check=false\nfix/** -llm-apply-check\ngen/* llm-apply-check\n", 0o644)
	tr.write("sub/.gitattributes", "*.txt llm-apply-check=false\n", 0o644)
	tr.git("add", ".gitattributes", "sub/.gitattributes")
	// What is staged counts, not the working tree.
	tr.write(".gitattributes", "* -llm-apply-check\n", 0o644)
	tr.write(filepath.Join(".git", "info", "attributes"), "info.c llm-apply-check=off\n", 0o644)

	paths := []string{"a.md", "doc/b.md", "fix/deep/x.go", "gen/y.go", "a.txt", "sub/t.txt", "info.c", "with space.md", "ünï.md"}
	got, err := tr.open(tr.dir).CheckAttr(context.Background(), "llm-apply-check", paths)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a.md": "false", "doc/b.md": "false", "fix/deep/x.go": "unset", "gen/y.go": "set",
		"a.txt": "unspecified", "sub/t.txt": "false", "info.c": "off", "with space.md": "false", "ünï.md": "false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CheckAttr (-want +got):\n%s", diff)
	}

	if got, err := tr.open(tr.dir).CheckAttr(context.Background(), "llm-apply-check", nil); err != nil || len(got) != 0 {
		t.Errorf("CheckAttr of no path = %v, %v", got, err)
	}
	if _, err := tr.open(tr.dir).CheckAttr(context.Background(), "bad attr!", []string{"a.md"}); err == nil {
		t.Errorf("CheckAttr of a bad attribute name: no error")
	}
}

func TestHooksDir(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	wt := filepath.Join(t.TempDir(), "wt")
	tr.git("worktree", "add", "-q", "-b", "side", wt)
	common := filepath.Join(tr.dir, ".git")
	realWt, _ := filepath.EvalSymlinks(wt)
	tests := []struct {
		name, hooksPath, dir, want string
	}{
		{"default", "", tr.dir, filepath.Join(common, "hooks")},
		{"linked worktree shares the common dir's", "", wt, filepath.Join(common, "hooks")},
		{"relative to the top of the working tree", "my hooks", filepath.Join(tr.dir, "dir"), filepath.Join(tr.dir, "my hooks")},
		{"relative in a linked worktree", ".githooks", wt, filepath.Join(realWt, ".githooks")},
		{"absolute", "/etc/hooks", tr.dir, "/etc/hooks"},
		{"home", "~/hooks", tr.dir, filepath.Join(tr.home, "hooks")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.hooksPath != "" { // the cases without come first
				tr.git("config", "core.hooksPath", tt.hooksPath)
			}
			got, err := tr.open(tt.dir).HooksDir()
			if err != nil || got != tt.want {
				t.Errorf("HooksDir() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
