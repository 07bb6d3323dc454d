package llmapply_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/git-llm-apply/git-llm-apply/llmapply"
)

// A reply in the SEARCH/REPLACE format, as a model writes it.
const reply = "Greet the world by name.\n\nhello.py\n```python\n<<<<<<< SEARCH\n    print(\"hello\")\n=======\n    print(\"hello, world\")\n>>>>>>> REPLACE\n```\n"

func ExampleResolve() {
	src := llmapply.MapSource(map[string][]byte{
		"hello.py": []byte("def main():\n    print(\"hello\")\n"),
	})
	res, err := llmapply.Resolve(context.Background(), reply, src, llmapply.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.OK(), res.Report.Format, res.Report.Edits[0].Status, res.Report.Edits[0].Rung)
	fmt.Printf("%s", res.Files[0].Content)
	fmt.Print(res.Diff)
	// Output:
	// true diff applied exact
	// def main():
	//     print("hello, world")
	// diff --git a/hello.py b/hello.py
	// index 2bb6a02..91cb229 100644
	// --- a/hello.py
	// +++ b/hello.py
	// @@ -1,2 +1,2 @@
	//  def main():
	// -    print("hello")
	// +    print("hello, world")
}

// A failed edit says why and where its lines most nearly stand, in a
// report meant to be sent back to the model as it is.
func ExampleReport_String() {
	src := llmapply.MapSource(map[string][]byte{
		"hello.py": []byte("def main():\n    print(\"hullo\")\n"),
	})
	res, err := llmapply.Resolve(context.Background(), reply, src, llmapply.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.OK())
	fmt.Print(res.Report)
	// Output:
	// false
	// Greet the world by name. (diff): [1 of 1 edit failed; nothing recorded]
	// error: edit 1 (replace hello.py, reply line 5) failed: the SEARCH text does not match any lines of hello.py.
	//   The closest line is line 2 of hello.py (similarity 0.94); "!" marks a line that differs from the edit's, "|" one that matches:
	//     !     print("hullo")
	//   With fuzz loose this edit matches there.
	//   Send this edit again with the lines to find copied exactly from those lines.
}

func ExampleParse() {
	r, err := llmapply.Parse(reply, llmapply.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Format, r.Description)
	for _, e := range r.Edits {
		fmt.Println(e.Op, e.Path, "at reply line", e.ReplyLine)
	}
	// Output:
	// diff Greet the world by name.
	// replace hello.py at reply line 5
}

func ExampleDirSource() {
	dir, err := os.MkdirTemp("", "llmapply-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "hello.py"), []byte("def main():\n    print(\"hello\")\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	src, err := llmapply.DirSource(dir)
	if err != nil {
		log.Fatal(err)
	}
	res, err := llmapply.Resolve(context.Background(), reply, src, llmapply.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		// Resolve writes nothing: writing the files is the caller's.
		fmt.Printf("%s %s\n%s", f.Mode, f.Path, f.Content)
	}
	// Output:
	// 100644 hello.py
	// def main():
	//     print("hello, world")
}

// exampleRepo makes a repository with git, whose first commit on main
// holds hello.py, and returns its directory.
func exampleRepo() string {
	dir, err := os.MkdirTemp("", "llmapply-example")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hello.py"), []byte("def main():\n    print(\"hello\")\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	git(dir, "init", "-q", "-b", "main")
	git(dir, "config", "user.name", "A") // who Record's commits are by
	git(dir, "config", "user.email", "a@example.com")
	git(dir, "add", "hello.py")
	git(dir, "commit", "-q", "-m", "hello")
	return dir
}

func git(dir string, args ...string) string {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A",
		"GIT_COMMITTER_EMAIL=a@example.com", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.Output()
	if err != nil {
		log.Fatal(err)
	}
	return string(out)
}

// Any io/fs file system is a source: here an in-memory one, with an
// executable whose mode the new content keeps.
func ExampleFSSource() {
	fsys := fstest.MapFS{"bin/hello.py": {Data: []byte("def main():\n    print(\"hello\")\n"), Mode: 0o755}}
	res, err := llmapply.Resolve(context.Background(), strings.Replace(reply, "hello.py", "bin/hello.py", 1), llmapply.FSSource(fsys), llmapply.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Files[0].Path, res.Files[0].Mode)
	// Output:
	// bin/hello.py 100755
}

// A revision of a repository is a source like any other.
func ExampleRepository_Revision() {
	dir := exampleRepo()
	defer os.RemoveAll(dir)
	repo, err := llmapply.OpenRepository(dir)
	if err != nil {
		log.Fatal(err)
	}
	src, err := repo.Revision("HEAD")
	if err != nil {
		log.Fatal(err)
	}
	res, err := llmapply.Resolve(context.Background(), reply, src, llmapply.Options{Fuzz: "exact"})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Report.Files {
		fmt.Println(f.Status, f.Path, f.Added, f.Deleted)
	}
	// Output:
	// M hello.py 1 1
}

// Record makes one commit per reply on a branch, leaving the checkout,
// the index and HEAD as they are; Undo takes the last one back.
func ExampleRepository_Record() {
	dir := exampleRepo()
	defer os.RemoveAll(dir)
	repo, err := llmapply.OpenRepository(dir)
	if err != nil {
		log.Fatal(err)
	}
	res, err := repo.Record(context.Background(), reply, llmapply.RecordOptions{Branch: "llm/greet"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Report.Status, res.Branch)
	fmt.Print(git(dir, "log", "--format=%s", "main..llm/greet"))
	fmt.Print(git(dir, "status", "--short"))

	parent, err := repo.Undo(res.Branch, res.Commit)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(parent == git(dir, "rev-parse", "main")[:40])
	// Output:
	// recorded llm/greet
	// Greet the world by name.
	// true
}

func ExampleFormats() {
	for _, f := range llmapply.Formats()[:3] {
		fmt.Println(f.Name)
	}
	p, err := llmapply.Prompt("diff")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(p) > 0)
	// Output:
	// diff
	// diff-fenced
	// fiup
	// true
}
