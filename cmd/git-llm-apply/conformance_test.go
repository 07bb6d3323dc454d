package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// codexSuite is the Codex apply_patch conformance suite, in the
// project's sibling shared/ directory (CI clones the project beside a
// copy of it).
var codexSuite = filepath.Join("..", "..", "..", "shared", "conformance", "codex-apply-patch")

// conformanceBase is the file committed to a scenario's repository when
// the scenario has no input: git needs a first commit to branch from,
// and a path no scenario uses keeps the comparison to the scenario's own
// files.
const conformanceBase = ".conformance-base"

// divergences are the scenarios where this project's contract (README,
// "Choices worth knowing") differs from Codex on purpose; each says
// what is asserted instead.
var divergences = map[string]string{
	// Deleting a file that is already gone counts as already applied:
	// running the same reply twice must not fail. Nothing is recorded
	// either way.
	"007_rejects_missing_file_delete": "exit 0, already-applied, nothing recorded",
}

// TestCodexConformance applies every scenario of the Codex suite with
// the built binary and compares the tree of the branch it records with
// the scenario's expected/ tree, byte for byte. A scenario whose
// expected tree is its input must be rejected: a non-zero exit and no
// branch. Codex applies patches file by file, so the scenario that
// expects a file added before a failing chunk to remain runs with
// --partial, and once more without it, which must record nothing.
func TestCodexConformance(t *testing.T) {
	t.Parallel()
	suite, err := filepath.Abs(codexSuite) // the binary runs in each scenario's repository
	if err != nil {
		t.Fatal(err)
	}
	scenarios, err := os.ReadDir(suite)
	if err != nil {
		t.Skipf("the Codex conformance suite is not beside the project (%s): %v", suite, err)
	}
	n := 0
	for _, sc := range scenarios {
		dir := filepath.Join(suite, sc.Name())
		if _, err := os.Stat(filepath.Join(dir, "patch.txt")); !sc.IsDir() || err != nil {
			continue
		}
		n++
		name := sc.Name()
		t.Run(name, func(t *testing.T) {
			input, expected := readScenarioTree(t, filepath.Join(dir, "input")), readScenarioTree(t, filepath.Join(dir, "expected"))
			if strings.HasPrefix(name, "015_") {
				runScenario(t, dir, input, expected, "--partial")
				runScenario(t, dir, input, input)
				return
			}
			if why, ok := divergences[name]; ok {
				runDivergence(t, dir, input, why)
				return
			}
			runScenario(t, dir, input, expected)
		})
	}
	if n == 0 {
		t.Fatalf("no scenario in %s", suite)
	}
}

// runScenario applies the scenario's patch to a repository holding
// input and checks the result against want (input itself: rejected).
func runScenario(t *testing.T, dir string, input, want map[string]string, flags ...string) {
	t.Helper()
	r := scenarioRepo(t, input)
	args := append([]string{"apply", "--format", "apply-patch", "-b", "conformance"}, flags...)
	res := r.run(append(args, filepath.Join(dir, "patch.txt"))...)
	if sameTree(input, want) {
		code := 1 // an edit failed
		if strings.HasPrefix(filepath.Base(dir), "005_") {
			code = 2 // a reply with no edit
		}
		if res.code != code {
			t.Errorf("%v: exit %d, want a rejection with exit %d\n%s", flags, res.code, code, res.stderr)
		}
		if strings.Contains(r.branches(), "conformance") {
			t.Errorf("%v: rejected, yet the branch conformance was made", flags)
		}
		return
	}
	code := 0
	if len(flags) > 0 && flags[0] == "--partial" {
		code = 1 // an edit failed, the others were recorded
	}
	if res.code != code {
		t.Fatalf("%v: exit %d, want %d\n%s", flags, res.code, code, res.stderr)
	}
	if got := branchTree(r, "conformance"); !sameTree(got, want) {
		t.Errorf("%v: tree of conformance:\n%s\nwant:\n%s\nreport:\n%s", flags, treeText(got), treeText(want), res.stderr)
	}
}

// runDivergence checks a scenario where the project departs from Codex
// (see divergences): the reply succeeds without recording anything.
func runDivergence(t *testing.T, dir string, input map[string]string, why string) {
	t.Helper()
	r := scenarioRepo(t, input)
	res := r.run("apply", "--format", "apply-patch", "-b", "conformance", filepath.Join(dir, "patch.txt"))
	t.Logf("divergence from Codex: %s", why)
	if res.code != 0 || !strings.Contains(res.stderr+res.stdout, "already") {
		t.Errorf("exit %d, want 0 with an already-applied edit\n%s", res.code, res.stderr)
	}
	if strings.Contains(r.branches(), "conformance") {
		t.Errorf("nothing to record, yet the branch conformance was made")
	}
}

// scenarioRepo commits input (or, when it is empty, an unrelated file)
// as the first commit of a new repository.
func scenarioRepo(t *testing.T, input map[string]string) *repo {
	t.Helper()
	files := map[string]string{}
	for p, c := range input {
		files[p] = c
	}
	if len(files) == 0 {
		files[conformanceBase] = "base\n"
	}
	return newRepo(t, files)
}

// readScenarioTree reads every file under root (none when root is
// absent), by slash-separated path.
func readScenarioTree(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return files
}

// branchTree reads every file of branch, the base file aside.
func branchTree(r *repo, branch string) map[string]string {
	files := map[string]string{}
	for _, p := range strings.Split(strings.TrimSpace(r.git("ls-tree", "-r", "--name-only", "-z", branch)), "\x00") {
		if p != "" && p != conformanceBase {
			files[p] = r.show(branch, p)
		}
	}
	return files
}

func sameTree(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for p, c := range a {
		if d, ok := b[p]; !ok || !bytes.Equal([]byte(c), []byte(d)) {
			return false
		}
	}
	return true
}

func treeText(files map[string]string) string {
	var names []string
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, p := range names {
		b.WriteString("== " + p + "\n" + files[p])
	}
	return b.String()
}
