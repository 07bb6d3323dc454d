package gitops

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// FuzzParseCommit: any commit or tag body decodes without a panic; a
// commit we accept starts with its tree header (as git's parser
// requires) and has the id, tree and parents git itself finds in it
// whenever git stores it (hash-object checks a commit as it stores it;
// log prints what it parsed); a tag we accept starts with its object
// header.
func FuzzParseCommit(f *testing.F) {
	dir := filepath.Join(f.TempDir(), "repo")
	env := testEnv(filepath.Dir(dir))
	gitOut := func(stdin string, args ...string) (string, bool) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		return strings.TrimRight(out.String(), "\n"), err == nil
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		f.Fatalf("git init: %v\n%s", err, out)
	}
	tree := strings.Repeat("a", 40)
	f.Add("tree " + tree + "\nparent " + strings.Repeat("b", 40) + "\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 2 +0000\n\nmsg\n")
	f.Add("tree " + tree + "\nauthor A <a@x> 1 +0000\ngpgsig -----BEGIN\n line\n -----END\n\nsigned\n")
	f.Add("object " + tree + "\ntype commit\ntag v1\ntagger T <t@x> 3 +0000\n\nv1\n")
	f.Add("parent " + tree + "\ntree " + tree + "\n\n")
	f.Add("tree 000000000000000000000000000000000000000A")
	f.Add(" \ntree " + strings.Repeat("0", 40))
	f.Add(" \nobject " + tree + "\ntype commit\n\n")
	f.Fuzz(func(t *testing.T, body string) {
		id := oid.Sum(oid.Commit, []byte(body))
		if _, _, err := tagTarget(id, []byte(body)); err == nil && !strings.HasPrefix(body, "object ") {
			t.Fatalf("a tag body not starting with its object header was read: %q", body)
		}
		c, err := parseCommit(id, []byte(body))
		if err != nil {
			return
		}
		// git's hex reader takes either case (hexval), and so do we.
		if first := "tree " + c.TreeHash.String(); len(body) < len(first) || !strings.EqualFold(body[:len(first)], first) {
			t.Fatalf("tree %s is not the first line of %q", c.TreeHash, body)
		}
		stored, ok := gitOut(body, "hash-object", "-t", "commit", "-w", "--stdin")
		if !ok {
			return
		}
		if stored != id.String() {
			t.Fatalf("git names the commit %s, we %s", stored, id)
		}
		theirs, ok := gitOut("", "log", "--no-walk", "--format=%T %P", stored)
		if !ok {
			t.Fatalf("git stores commit %q and cannot read it", body)
		}
		ours := c.TreeHash.String()
		for _, p := range c.Parents {
			ours += " " + p.String()
		}
		if theirs != ours && theirs != ours+" " {
			t.Fatalf("git reads tree and parents %q, we read %q from %q", theirs, ours, body)
		}
	})
}
