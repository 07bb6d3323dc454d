package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/patch"
	"github.com/git-llm-apply/git-llm-apply/translate"
)

// goldenFormats are the formats with golden case directories under
// testdata/<format>/<case>/.
var goldenFormats = []string{"diff", "diff-fenced", "fiup", "chunk", "edit-v2", "udiffx", "apply-patch", "udiff", "tool-calls", "whole", "cline", "roo"}

// formatCaseDirs are the golden case directories of format, under the
// project's testdata/ (whose replies the translate tests read too).
func formatCaseDirs(format string) []string {
	var dirs []string
	replies, _ := filepath.Glob(filepath.Join("..", "testdata", format, "*", "reply.md"))
	for _, reply := range replies {
		dirs = append(dirs, filepath.Dir(reply))
	}
	return dirs
}

// TestFormatGolden runs every testdata/<format>/<case>/ directory:
// reply.md is resolved (with --format <format>, or the options file's
// "format: auto") against the files under in/ (a name ending in ".x"
// is an executable, the suffix dropped), and the result must match
// report.txt and the files under out/ (the whole tree after the reply;
// absent when the reply fails). Every diff must pass git apply --check
// against in/. -update rewrites report.txt and out/.
func TestFormatGolden(t *testing.T) {
	for _, format := range goldenFormats {
		for _, dir := range formatCaseDirs(format) {
			t.Run(format+"/"+filepath.Base(dir), func(t *testing.T) { runFormatCase(t, format, dir) })
		}
	}
}

// TestPromptExamples checks that every format's prompt carries a worked
// example, that it is the reply of testdata/<format>/prompt-example/
// (which TestFormatGolden runs), and that every edit of it applies.
func TestPromptExamples(t *testing.T) {
	for _, format := range translate.FormatNames() {
		example, err := promptExample(format)
		if err != nil {
			t.Errorf("%s: %v", format, err)
			continue
		}
		dir := filepath.Join("..", "testdata", format, "prompt-example")
		reply, err := os.ReadFile(filepath.Join(dir, "reply.md"))
		if err != nil || string(reply) != example {
			t.Errorf("%s: prompt-example/reply.md is not the prompt's example (%v)", format, err)
			continue
		}
		results, err := Run(context.Background(), []Input{{Source: "example", Text: example}}, readTree(t, filepath.Join(dir, "in")), nil, RunOptions{Format: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		if r := results[0]; r.Failed() || r.Status != Checked || !strings.HasPrefix(r.Format, strings.TrimSuffix(format, "-fenced")) {
			t.Errorf("%s: the example does not apply cleanly: status %s, format %s, %v", format, r.Status, r.Format, r.Err)
		}
	}
}

// promptExample is the worked example reply of a format's prompt: the
// text between the lines "<!-- example -->" and "<!-- /example -->" of
// translate/prompts/<format>.md.
func promptExample(format string) (string, error) {
	p, err := os.ReadFile(filepath.Join("..", "translate", "prompts", format+".md"))
	if err != nil {
		return "", err
	}
	_, rest, ok := strings.Cut(string(p), "<!-- example -->\n")
	example, _, ok2 := strings.Cut(rest, "<!-- /example -->")
	if !ok || !ok2 {
		return "", fmt.Errorf("the %s prompt has no example", format)
	}
	return example, nil
}

func runFormatCase(t *testing.T, format, dir string) {
	reply, src, opts := loadFormatCase(t, format, dir)
	results, err := Run(context.Background(), []Input{{Source: "reply.md", Text: reply}}, src, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	report := dumpResult(r)
	out := memSource{}
	if len(r.Changes) > 0 {
		out = withChanges(src, r.Changes)
	}
	if *update {
		if err := os.WriteFile(filepath.Join(dir, "report.txt"), []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(filepath.Join(dir, "out"))
		if len(r.Changes) > 0 {
			writeTree(t, filepath.Join(dir, "out"), out)
		}
		return
	}
	want, _ := os.ReadFile(filepath.Join(dir, "report.txt"))
	if report != string(want) {
		t.Errorf("report:\n%s\nwant:\n%s", report, want)
	}
	wantOut := memSource{}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		wantOut = readTree(t, filepath.Join(dir, "out"))
	}
	if got, want := treeString(out), treeString(wantOut); got != want {
		t.Errorf("files after the reply:\n%s\nwant:\n%s", got, want)
	}
	if len(r.Patch) > 0 {
		gitApplyCheck(t, src, string(r.Patch))
	}
}

// loadFormatCase reads a golden case directory: its reply, the files
// under in/ and the run options (format's, unless the options file
// says otherwise).
func loadFormatCase(t *testing.T, format, dir string) (string, memSource, RunOptions) {
	t.Helper()
	opts := RunOptions{Format: format}
	if data, err := os.ReadFile(filepath.Join(dir, "options")); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			k, v, _ := strings.Cut(l, ": ")
			switch k {
			case "format":
				opts.Format = v
			case "fuzz":
				opts.Fuzz, _ = ParseFuzz(v)
			case "partial":
				opts.Partial = v == "true"
			}
		}
	}
	src := readTree(t, filepath.Join(dir, "in"))
	reply, err := os.ReadFile(filepath.Join(dir, "reply.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(reply), src, opts
}

// withChanges is src with changes laid over it: the files after a reply.
func withChanges(src memSource, changes []patch.FileChange) memSource {
	out := memSource{}
	for p, f := range src {
		out[p] = f
	}
	for _, c := range changes {
		delete(out, c.OldPath)
		if c.NewPath != "" {
			out[c.NewPath] = memFile{c.NewMode, string(c.New)}
		}
	}
	return out
}

func readTree(t *testing.T, root string) memSource {
	t.Helper()
	src := memSource{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		mode := patch.ModeRegular
		if strings.HasSuffix(rel, ".x") {
			rel, mode = strings.TrimSuffix(rel, ".x"), patch.ModeExec
		}
		src[rel] = memFile{mode, string(data)}
		return nil
	})
	return src
}

func writeTree(t *testing.T, root string, files memSource) {
	t.Helper()
	for p, f := range files {
		name := p
		if f.mode == patch.ModeExec {
			name += ".x"
		}
		full := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func treeString(files memSource) string {
	var names []string
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, p := range names {
		b.WriteString("== " + p)
		if files[p].mode == patch.ModeExec {
			b.WriteString(" (executable)")
		}
		b.WriteString("\n" + files[p].data + "\n")
	}
	return b.String()
}

// TestReadmeExamples runs each "<!-- readme-example FORMAT -->" reply
// of README.md against the app.py the README shows.
func TestReadmeExamples(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	src := memSource{"app.py": memFile{patch.ModeRegular, "def main():\n    return 1\n"}}
	seen := map[string]bool{}
	rest := string(data)
	for {
		_, after, ok := strings.Cut(rest, "<!-- readme-example ")
		if !ok {
			break
		}
		format, after, _ := strings.Cut(after, " -->\n~~~text\n")
		reply, after, _ := strings.Cut(after, "\n~~~\n")
		rest = after
		seen[format] = true
		results, err := Run(context.Background(), []Input{{Source: "README", Text: reply + "\n"}}, src, nil, RunOptions{Format: format})
		if err != nil {
			t.Fatal(err)
		}
		r := results[0]
		if r.Err != nil || r.Status != Checked || len(r.Changes) != 1 || string(r.Changes[0].New) != "def main():\n    return 2\n" {
			t.Errorf("%s: status %s, err %v, changes %d", format, r.Status, r.Err, len(r.Changes))
		}
		auto, _ := Run(context.Background(), []Input{{Source: "README", Text: reply + "\n"}}, src, nil, RunOptions{Format: "auto"})
		if got := auto[0].Format; got != format {
			t.Errorf("%s: auto-detected as %q", format, got)
		}
	}
	for _, f := range goldenFormats {
		if !seen[f] {
			t.Errorf("README has no example of %s", f)
		}
	}
}
