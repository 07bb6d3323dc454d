package translate

// What the tests of the format readers share: the seeds of their fuzz
// targets, the promises every reader keeps whatever the reply, and the
// harness of their table tests. A reader's own files keep only what its
// format adds, so that a promise all readers make is checked the same
// way for each.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-llm-apply/git-llm-apply/internal/golden"
)

// goldenReplies is the pattern of a format's golden cases, whose
// replies (read by readFiles) the engine's golden test runs end to end.
func goldenReplies(format string) string {
	return filepath.Join("..", "..", "testdata", format, "*.txtar")
}

// promptPath is a format's prompt file. The whole prompt, not only its
// example, makes a seed: its prose quotes markers out of place.
func promptPath(format string) string { return filepath.Join("prompts", format+".md") }

// namedText is a file's path and content.
type namedText struct{ name, text string }

// readFiles returns the files the patterns match, pattern by pattern;
// of a golden case (a .txtar file, package golden) its reply. A pattern
// may match nothing (a suite not checked out beside the project), but a
// file that matches and cannot be read fails tb, lest a seed or a case
// drop out unnoticed.
func readFiles(tb testing.TB, patterns ...string) []namedText {
	tb.Helper()
	var out []namedText
	for _, pattern := range patterns {
		files, err := filepath.Glob(pattern)
		if err != nil {
			tb.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, ".txtar") {
				c, err := golden.Read(file)
				if err != nil {
					tb.Fatal(err)
				}
				out = append(out, namedText{file, c.Reply})
				continue
			}
			data, err := os.ReadFile(file)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, namedText{file, string(data)})
		}
	}
	return out
}

// addSeedFiles adds the files the patterns match to f's seed corpus.
func addSeedFiles(f *testing.F, patterns ...string) {
	f.Helper()
	for _, file := range readFiles(f, patterns...) {
		f.Add(file.text)
	}
}

// goldenReplyFiles returns the replies of format's golden cases; a
// format without any fails t, since a misspelt directory would
// otherwise pass for a format with no cases.
func goldenReplyFiles(t *testing.T, format string) []namedText {
	t.Helper()
	files := readFiles(t, goldenReplies(format))
	if len(files) == 0 {
		t.Fatalf("no golden cases under testdata/%s", format)
	}
	return files
}

// promptExample returns the worked example of format's prompt. It fails
// t unless the prompt ends with exactly one example, marked so that
// PromptExample finds it, and the example is the reply of the golden
// case prompt-example: the engine's golden test then vouches that the
// example the model is shown applies.
func promptExample(t *testing.T, format string) string {
	t.Helper()
	prompt, err := promptFile(format)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(prompt, "\n<!-- example -->\n")
	example, tail, ok2 := strings.Cut(rest, "<!-- /example -->")
	if !ok || !ok2 || strings.Contains(rest, "<!-- example -->") || strings.TrimSpace(tail) != "" || !strings.HasSuffix(example, "\n") {
		t.Fatalf("prompts/%s.md must end with exactly one example, between a <!-- example --> line and a <!-- /example --> line", format)
	}
	if got, err := exampleOf(format); err != nil || got != example {
		t.Fatalf("exampleOf(%q) = %q, %v; want the example between the markers", format, got, err)
	}
	file := filepath.Join("..", "..", "testdata", format, "prompt-example.txtar")
	c, err := golden.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if c.Reply != example {
		t.Errorf("the reply of %s differs from the example in prompts/%s.md", file, format)
	}
	return example
}

// readerContract is what a reader promises for any reply, however
// malformed. The fuzz targets hold every reader to it and the table
// harness every case, so that a reader's own checks need only add what
// its format promises beyond it.
type readerContract struct {
	parse func(string) (*Reply, error)
	// formats are the names the Reply may carry, the reader's own
	// first. A *ParseError and every operation carry the Reply's.
	formats []string
	// unnamedOps: the operations carry no format, Parse names them.
	unnamedOps bool
	// pathBreaks are the characters no Path or NewPath may hold.
	pathBreaks string
	// parseErrors: the reader may stop at a *ParseError; otherwise it
	// reports what it cannot read in Reply.Failed and the only error
	// is ErrNoEdits.
	parseErrors bool
	// emptyWithoutError: the reader may return no error though it
	// found nothing. A SEARCH/REPLACE block whose parts are elisions
	// alone ("...") splits into no piece, yet the reply has a block.
	emptyWithoutError bool
}

// check reads reply and fails t unless the result keeps c: a Reply
// always; ErrNoEdits only when it found neither an operation nor a
// failed block, and no error only when it found one (unless c allows
// none); a *ParseError, and then no failed block, only where c allows
// one; every line it names within the reply; the format's name throughout; paths without
// the characters c refuses; a group within one file; no line that
// holds a line break. It returns the reply's lines and what the reader
// returned, for the reader's own checks.
func (c readerContract) check(t *testing.T, reply string) ([]string, *Reply, error) {
	t.Helper()
	lines := splitLines(reply)
	r, err := c.parse(reply)
	if r == nil {
		t.Fatal("nil Reply")
	}
	if !slices.Contains(c.formats, r.Format) {
		t.Fatalf("format %q, want one of %q", r.Format, c.formats)
	}
	if c.parseErrors && len(r.Failed) > 0 {
		t.Fatalf("failures %+v from a reader that stops at a *ParseError instead", r.Failed)
	}
	found := len(r.Ops)+len(r.Failed) > 0
	var pe *ParseError
	switch {
	case err == nil:
		if !found && !c.emptyWithoutError {
			t.Fatal("no error and nothing found")
		}
	case errors.Is(err, ErrNoEdits):
		if found {
			t.Fatalf("ErrNoEdits with %d operations and %d failures: %v", len(r.Ops), len(r.Failed), err)
		}
	case c.parseErrors && errors.As(err, &pe):
		inReply(t, lines, "error", pe.Line)
		if pe.Format != r.Format {
			t.Fatalf("error format %q in a reply of format %q", pe.Format, r.Format)
		}
	default:
		t.Fatalf("unexpected error %T: %v", err, err)
	}
	if len(r.Prose) > len(lines) {
		t.Fatalf("%d prose lines from a reply of %d", len(r.Prose), len(lines))
	}
	opFormat := r.Format
	if c.unnamedOps {
		opFormat = ""
	}
	groups := map[int]string{}
	for _, op := range r.Ops {
		inReply(t, lines, "operation", op.Line)
		for _, n := range op.ProseNames {
			if n == "" || strings.ContainsAny(n, c.pathBreaks) || op.Path != "" {
				t.Fatalf("operation %+v", op)
			}
		}
		if op.Format != opFormat || op.Path == "" && len(op.ProseNames) == 0 || strings.ContainsAny(op.Path, c.pathBreaks) ||
			op.Kind == Rename && (op.NewPath == "" || strings.ContainsAny(op.NewPath, c.pathBreaks)) {
			t.Fatalf("operation %+v", op)
		}
		if op.Group != 0 {
			if p, ok := groups[op.Group]; ok && p != op.Path {
				t.Fatalf("group %d spans %s and %s", op.Group, p, op.Path)
			}
			groups[op.Group] = op.Path
		}
		if op.Content != "" && (op.Kind != Create || op.New != nil || !strings.HasSuffix(op.Content, "\n") || strings.Contains(op.Content, "\r\n")) {
			t.Fatalf("operation with content %q: %+v", op.Content, op)
		}
		for _, part := range [][]string{op.Scope, op.Before, op.Old, op.New, op.After} {
			for _, l := range part {
				if strings.Contains(l, "\n") {
					t.Fatalf("line %q holds a line break", l)
				}
			}
		}
	}
	for _, f := range r.Failed {
		inReply(t, lines, "failure", f.Line)
		if f.Msg == "" {
			t.Fatal("failure without a message")
		}
	}
	for _, w := range r.Warnings {
		inReply(t, lines, "warning", w.Line)
	}
	for _, s := range r.Shell {
		inReply(t, lines, "shell block", s.Line)
	}
	return lines, r, err
}

// inReply fails t unless line is one of the reply's lines.
func inReply(t *testing.T, lines []string, what string, line int) {
	t.Helper()
	if line < 1 || line > len(lines) {
		t.Fatalf("%s at line %d, outside the reply's %d lines", what, line, len(lines))
	}
}

// warned reports whether r holds a warning at line that says what.
func warned(r *Reply, line int, what string) bool {
	for _, w := range r.Warnings {
		if w.Line == line && strings.Contains(w.Msg, what) {
			return true
		}
	}
	return false
}

// checkReadsBack fails t unless ops, which a fuzz target wrote back as
// text in its format, read back the same; only the reply lines they
// stand on may differ.
func checkReadsBack(t *testing.T, parse func(string) (*Reply, error), ops []Operation, text string) {
	t.Helper()
	again, err := parse(text)
	if err != nil {
		t.Fatalf("written back: %v\n%s", err, text)
	}
	norm := func(ops []Operation) []Operation {
		out := make([]Operation, len(ops))
		for i, op := range ops {
			op.Line = 0
			out[i] = op
		}
		return out
	}
	if diff := cmp.Diff(norm(ops), norm(again.Ops)); diff != "" {
		t.Fatalf("written back (-first +again):\n%s\n%s", diff, text)
	}
}

// replyCase is a reply and what its reader must return, part by part.
type replyCase struct {
	name     string
	reply    string
	ops      []Operation
	prose    []string
	shell    []Shell
	warnings []Warning
	failed   []Failure
	noEdits  bool // the reader returns ErrNoEdits; otherwise no error
}

// runReplyCases reads each case's reply in a subtest, holds the result
// to c and compares it with the case part by part, so that a failure
// names the part that differs.
func (c readerContract) runReplyCases(t *testing.T, cases []replyCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, r, err := c.check(t, tc.reply)
			if tc.noEdits != errors.Is(err, ErrNoEdits) || !tc.noEdits && err != nil {
				t.Errorf("error %v", err)
			}
			for _, part := range []struct {
				name      string
				want, got any
			}{
				{"format", c.formats[0], r.Format},
				{"description", "", r.Description},
				{"ops", tc.ops, r.Ops},
				{"prose", tc.prose, r.Prose},
				{"shell", tc.shell, r.Shell},
				{"warnings", tc.warnings, r.Warnings},
				{"failed", tc.failed, r.Failed},
			} {
				if diff := cmp.Diff(part.want, part.got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", part.name, diff)
				}
			}
		})
	}
}

// checkNoEdits fails t unless c's reader returns ErrNoEdits for each
// reply, in a subtest of its own; the contract then holds the reader
// to having found nothing.
func (c readerContract) checkNoEdits(t *testing.T, replies ...string) {
	for _, reply := range replies {
		t.Run(reply, func(t *testing.T) {
			if _, _, err := c.check(t, reply); !errors.Is(err, ErrNoEdits) {
				t.Errorf("error %v, want ErrNoEdits", err)
			}
		})
	}
}

// readPromptExample reads the prompt example of c's first format. The
// model imitates the example, so it must read without error, failure
// or warning.
func (c readerContract) readPromptExample(t *testing.T) *Reply {
	t.Helper()
	_, r, err := c.check(t, promptExample(t, c.formats[0]))
	if err != nil || len(r.Failed)+len(r.Warnings) > 0 {
		t.Fatalf("the prompt's example: error %v, failures %v, warnings %v", err, r.Failed, r.Warnings)
	}
	return r
}

// dumpCase is a reply and the dump of what its reader returns.
type dumpCase struct{ name, reply, want string }

// runDumpCases reads each case's reply in a subtest, holds the result
// to c and compares dump's account of it with the case's want.
func (c readerContract) runDumpCases(t *testing.T, dump func(*Reply, error) string, cases []dumpCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, r, err := c.check(t, tc.reply)
			if diff := cmp.Diff(tc.want, dump(r, err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// dumpFlag is a flag of an operation that a dump names when it is set.
type dumpFlag struct {
	set  bool
	name string
}

// dumpStyle is what a format's dump shows beyond what all show.
type dumpStyle struct {
	// quote: paths are quoted, where they may hold any character.
	quote bool
	// flags are the operation's flags, in the order the dump names them.
	flags func(Operation) []dumpFlag
}

// dump writes what a reader returned, one item a line, in the form of
// the tables of the diff-like readers.
func (s dumpStyle) dump(r *Reply, err error) string {
	var b strings.Builder
	path := func(p string) string {
		if s.quote {
			return strconv.Quote(p)
		}
		return p
	}
	for _, op := range r.Ops {
		fmt.Fprintf(&b, "%d %s %s", op.Line, op.Kind, path(op.Path))
		if op.NewPath != "" {
			fmt.Fprintf(&b, " -> %s", path(op.NewPath))
		}
		if op.Group != 0 {
			fmt.Fprintf(&b, " group %d", op.Group)
		}
		if op.LineHint != 0 {
			fmt.Fprintf(&b, " hint %d", op.LineHint)
		}
		for _, f := range s.flags(op) {
			if f.set {
				b.WriteString(" " + f.name)
			}
		}
		b.WriteString("\n")
		for _, part := range []struct {
			label string
			lines []string
		}{{"scope", op.Scope}, {"old", op.Old}, {"new", op.NewLines()}} {
			for _, l := range part.lines {
				fmt.Fprintf(&b, "  %s|%s\n", part.label, l)
			}
		}
	}
	for _, f := range r.Failed {
		fmt.Fprintf(&b, "%d FAILED %s: %s\n", f.Line, path(f.Path), f.Msg)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning %d: %s\n", w.Line, w.Msg)
	}
	for _, sh := range r.Shell {
		fmt.Fprintf(&b, "shell %d %s: %q\n", sh.Line, sh.Lang, sh.Text)
	}
	for _, l := range r.Prose {
		fmt.Fprintf(&b, "prose|%s\n", l)
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// asParseError returns err as a *ParseError, failing t when it is not
// one.
func asParseError(t *testing.T, err error) *ParseError {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T), want a *ParseError", err, err)
	}
	return pe
}

// exampleOf returns the worked example reply of a format's prompt:
// the text between the lines "<!-- example -->" and "<!-- /example -->".
func exampleOf(format string) (string, error) {
	if lookup(format) == nil {
		return "", fmt.Errorf("%w %q", ErrUnknownFormat, format)
	}
	p, err := promptFile(format)
	if err != nil {
		return "", err
	}
	_, rest, ok := strings.Cut(p, "<!-- example -->\n")
	example, _, ok2 := strings.Cut(rest, "<!-- /example -->")
	if !ok || !ok2 {
		return "", fmt.Errorf("the %s prompt has no example", format)
	}
	return example, nil
}
