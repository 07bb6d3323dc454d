package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/golden"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// goldenFormats are the formats with golden cases, the files
// testdata/<format>/<case>.txtar (laid out as package golden says).
var goldenFormats = []string{"diff", "diff-fenced", "fiup", "chunk", "edit-v2", "udiffx", "apply-patch", "udiff", "tool-calls", "whole", "cline", "roo", "lazy"}

// formatCases are the golden case files of format, under the project's
// testdata/ (whose replies the translate tests read too).
func formatCases(format string) []string {
	files, _ := golden.Files(filepath.Join("..", "..", "testdata", format))
	return files
}

// TestFormatGolden runs every case testdata/<format>/<case>.txtar: its
// reply is resolved (with --format <format>, or the options section's
// "format: auto") against its in/ files, and the result must match its
// report and its out/ files (the whole tree after the reply; none when
// the reply fails). Every diff must pass git apply --check against the
// in/ files. -update rewrites the report, the out/ files and the mode
// section.
func TestFormatGolden(t *testing.T) {
	for _, format := range goldenFormats {
		for _, file := range formatCases(format) {
			t.Run(format+"/"+golden.Name(file), func(t *testing.T) { runFormatCase(t, format, file) })
		}
	}
}

// TestPromptExamples checks that every format's prompt carries a worked
// example, that it is the reply of testdata/<format>/prompt-example.txtar
// (which TestFormatGolden runs), and that every edit of it applies.
func TestPromptExamples(t *testing.T) {
	for _, format := range translate.FormatNames() {
		example, err := promptExample(format)
		if err != nil {
			t.Errorf("%s: %v", format, err)
			continue
		}
		c, err := golden.Read(filepath.Join("..", "..", "testdata", format, "prompt-example.txtar"))
		if err != nil || c.Reply != example {
			t.Errorf("%s: the reply of prompt-example.txtar is not the prompt's example (%v)", format, err)
			continue
		}
		opts := RunOptions{Format: "auto"}
		if format == translate.FormatLazy {
			opts.Format = format // never detected: the prompt's reader names it
		}
		results, err := Run(context.Background(), []Input{{Source: "example", Text: example}}, fromGolden(c.In), nil, opts)
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

func runFormatCase(t *testing.T, format, file string) {
	c, err := golden.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	src := fromGolden(c.In)
	results, err := Run(context.Background(), []Input{{Source: "reply.md", Text: c.Reply}}, src, nil, caseOptions(format, c.Options))
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
		c.Report, c.Out = report, toGolden(out)
		if err := golden.Write(file, c); err != nil {
			t.Fatal(err)
		}
		return
	}
	if report != c.Report {
		t.Errorf("report:\n%s\nwant:\n%s", report, c.Report)
	}
	if got, want := treeString(out), treeString(fromGolden(c.Out)); got != want {
		t.Errorf("files after the reply:\n%s\nwant:\n%s", got, want)
	}
	if len(r.Patch) > 0 {
		gitApplyCheck(t, src, string(r.Patch))
	}
}

// loadFormatCase reads a golden case file: its reply, its in/ files
// and the run options.
func loadFormatCase(t *testing.T, format, file string) (string, memSource, RunOptions) {
	t.Helper()
	c, err := golden.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	return c.Reply, fromGolden(c.In), caseOptions(format, c.Options)
}

// caseOptions are the run options of a golden case of format: its
// format's, unless the options section says otherwise.
func caseOptions(format, options string) RunOptions {
	opts := RunOptions{Format: format}
	for _, l := range strings.Split(options, "\n") {
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
	return opts
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

// fromGolden is the files of a golden case's tree as a Source.
func fromGolden(files map[string]golden.File) memSource {
	src := memSource{}
	for p, f := range files {
		mode := patch.ModeRegular
		if f.Exec {
			mode = patch.ModeExec
		}
		src[p] = memFile{mode, f.Data}
	}
	return src
}

// toGolden is the files of src as a golden case's tree.
func toGolden(src memSource) map[string]golden.File {
	files := map[string]golden.File{}
	for p, f := range src {
		files[p] = golden.File{Data: f.data, Exec: f.mode == patch.ModeExec}
	}
	return files
}

// writeTree writes files under root, an executable with mode 0755.
func writeTree(t *testing.T, root string, files memSource) {
	t.Helper()
	for p, f := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		mode := os.FileMode(0o644)
		if f.mode == patch.ModeExec {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(f.data), mode); err != nil {
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
// of the README and the docs against the app.py docs/formats.md shows.
func TestReadmeExamples(t *testing.T) {
	var data []byte
	for _, p := range []string{"README.md", "docs/formats.md", "docs/agents.md", "docs/usage.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", p))
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, b...)
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
		want := format
		if format == translate.FormatLazy {
			want = translate.FormatWhole // never detected; a fence without markers is a whole file
		}
		if got := auto[0].Format; got != want {
			t.Errorf("%s: auto-detected as %q", format, got)
		}
	}
	for _, f := range goldenFormats {
		if !seen[f] {
			t.Errorf("README has no example of %s", f)
		}
	}
}
