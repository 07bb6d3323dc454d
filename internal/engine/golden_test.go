package engine

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/git-llm-apply/git-llm-apply/internal/message"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGolden runs every testdata/resolve/*.txtar case through Run: the
// "reply" section against the files given as "file:<path>" sections
// ("file+x:<path>" for an executable), with options as "# key: value"
// comment lines (format, fuzz, partial). It compares the per-edit
// report with "want.report" and the diff with "want.diff", which must
// also pass `git apply --check` against the same files.
func TestGolden(t *testing.T) {
	cases := resolveCases()
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, name := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			ar, reply, src, opts := loadResolveCase(t, name)
			results, err := Run(context.Background(), []Input{{Source: "reply", Text: reply}}, src, nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			gotReport, gotDiff := dumpResult(results[0]), string(results[0].Patch)
			if *update {
				var files []txtar.File
				for _, f := range ar.Files {
					if !strings.HasPrefix(f.Name, "want.") {
						files = append(files, f)
					}
				}
				files = append(files, txtar.File{Name: "want.report", Data: []byte(gotReport)})
				if gotDiff != "" {
					files = append(files, txtar.File{Name: "want.diff", Data: []byte(gotDiff)})
				}
				ar.Files = files
				if err := os.WriteFile(name, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			var wantReport, wantDiff string
			for _, f := range ar.Files {
				switch f.Name {
				case "want.report":
					wantReport = string(f.Data)
				case "want.diff":
					wantDiff = string(f.Data)
				}
			}
			if gotReport != wantReport {
				t.Errorf("report:\n%s\nwant:\n%s", gotReport, wantReport)
			}
			if gotDiff != wantDiff {
				t.Errorf("diff:\n%s\nwant:\n%s", gotDiff, wantDiff)
			}
			if wantDiff != "" {
				gitApplyCheck(t, src, wantDiff)
			}
		})
	}
}

// resolveCases are the txtar cases TestGolden runs.
func resolveCases() []string {
	cases, _ := filepath.Glob("../../testdata/resolve/*.txtar")
	return cases
}

// loadResolveCase reads a testdata/resolve case: its archive (for
// -update), the reply, the files it edits and the run options.
func loadResolveCase(t *testing.T, name string) (*txtar.Archive, string, memSource, RunOptions) {
	t.Helper()
	ar, err := txtar.ParseFile(name)
	if err != nil {
		t.Fatal(err)
	}
	opts := RunOptions{Format: "auto"}
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		k, v, _ := strings.Cut(strings.TrimPrefix(l, "# "), ": ")
		switch k {
		case "format":
			opts.Format = v
		case "fuzz":
			if opts.Fuzz, err = ParseFuzz(v); err != nil {
				t.Fatal(err)
			}
		case "partial":
			opts.Partial = v == "true"
		}
	}
	src := memSource{}
	var reply string
	for _, f := range ar.Files {
		switch {
		case f.Name == "reply":
			reply = string(f.Data)
		case strings.HasPrefix(f.Name, "file:"):
			src[strings.TrimPrefix(f.Name, "file:")] = memFile{patch.ModeRegular, string(f.Data)}
		case strings.HasPrefix(f.Name, "file+x:"):
			src[strings.TrimPrefix(f.Name, "file+x:")] = memFile{patch.ModeExec, string(f.Data)}
		}
	}
	return ar, reply, src, opts
}

// dumpResult is a readable account of a reply's outcome for golden files.
func dumpResult(r *ReplyResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "status: %s\n", r.Status)
	if r.Err != nil {
		fmt.Fprintf(&b, "error: %v\n", r.Err)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: reply line %d: %s\n", w.Line, w.Msg)
	}
	for _, o := range r.Outcomes {
		path := o.Path
		if path == "" {
			path = o.Op.Path
		}
		if o.Op.Kind == translate.Rename {
			path += " -> " + o.Op.NewPath
		}
		fmt.Fprintf(&b, "edit %d: %s %s %s", o.N, OpName(o.Op), path, o.Status)
		if o.Rung != 0 {
			fmt.Fprintf(&b, " (%s)", o.Rung)
		}
		if o.Start != 0 || o.End != 0 {
			fmt.Fprintf(&b, " lines %d-%d", o.Start, o.End)
		}
		b.WriteString("\n")
		if o.Op.Comment != "" {
			fmt.Fprintf(&b, "  comment: %s\n", o.Op.Comment)
		}
		for _, w := range o.Warnings {
			fmt.Fprintf(&b, "  warning: %s\n", w)
		}
		if o.Err != nil {
			fmt.Fprintf(&b, "  error: %s\n", o.Err.Msg)
			if c := o.Err.Closest; c != nil {
				fmt.Fprintf(&b, "  closest: lines %d-%d similarity %.2f differ %s", c.Start, c.End, c.Similarity, intList(c.Differ))
				if c.Rung != 0 {
					fmt.Fprintf(&b, "; --fuzz %s takes them (%s)", c.Fuzz, c.Rung)
				}
				b.WriteString("\n")
			}
		}
	}
	if r.Message != "" {
		// The LLM-Reply trailer is a digest of the edits, which
		// TestReplyDigest and the already-recorded tests check: in
		// goldens it would be a hash that changes with any field of
		// the operations.
		msg := r.Message
		if i := strings.Index(msg, message.ReplyTrailer+": "); i >= 0 {
			end := strings.IndexByte(msg[i:], '\n') + i + 1
			msg = msg[:i] + msg[end:]
		}
		fmt.Fprintf(&b, "message:\n%s", indentText(msg, "  | "))
	}
	return b.String()
}

func indentText(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString(prefix + l)
		}
	}
	return b.String()
}

// gitApplyCheck writes the files into a scratch directory and asks git
// whether the diff applies to them.
func gitApplyCheck(t *testing.T, src memSource, diff string) {
	t.Helper()
	dir := t.TempDir()
	for p, f := range src {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		mode := os.FileMode(0o644)
		if f.mode == patch.ModeExec {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(f.data), mode); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "apply", "--check", "-")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(diff)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Errorf("git apply --check: %v\n%s", err, out.String())
	}
}
