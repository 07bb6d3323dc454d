package engine

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// resolveTree resolves ops against src and returns the tree they leave
// ("path=content" sorted, one a line), the outcomes, and the failures'
// messages.
func resolveTree(t *testing.T, src memSource, ops ...translate.Operation) (string, []Outcome) {
	t.Helper()
	res, err := Resolve(src, ops, Options{Format: "diff"})
	if err != nil {
		t.Fatal(err)
	}
	tree := map[string]string{}
	for p, f := range src {
		tree[p] = f.data
	}
	if res.Failed() == 0 {
		for _, c := range res.Changes {
			if c.OldPath != "" {
				delete(tree, c.OldPath)
			}
		}
		for _, c := range res.Changes {
			if c.NewPath != "" {
				tree[c.NewPath] = string(c.New)
			}
		}
	}
	var out []string
	for p, d := range tree {
		out = append(out, p+"="+strings.TrimSuffix(d, "\n"))
	}
	sort.Strings(out)
	return strings.Join(out, " "), res.Outcomes
}

func create(p, content string) translate.Operation {
	return translate.Operation{Kind: translate.Create, Path: p, LineEdit: translate.LineEdit{New: lines(content)}}
}

// Create, delete, overwrite and move take the path as written: a name
// that is no path never lands on sub/s.txt, the one file ending in it.
// Only an edit of a file's lines finds its file so, and says so.
func TestFileOperationsTakeThePathAsWritten(t *testing.T) {
	base := func() memSource { return files("sub/s.txt", "old\n", "t.txt", "t\n") }
	tests := []struct {
		name   string
		ops    []translate.Operation
		tree   string   // what is left when every edit resolved
		status []Status // per edit
		warn   string   // a warning of the first edit
	}{
		{"create", []translate.Operation{create("s.txt", "new\n")},
			"s.txt=new sub/s.txt=old t.txt=t", []Status{Applied}, ""},
		{"create or append (empty SEARCH)", []translate.Operation{{Kind: translate.Create, FileCreate: translate.FileCreate{Append: true}, Path: "s.txt", LineEdit: translate.LineEdit{New: []string{"new"}}}},
			"s.txt=new sub/s.txt=old t.txt=t", []Status{Applied}, ""},
		{"overwrite (whole)", []translate.Operation{{Kind: translate.Create, FileCreate: translate.FileCreate{Overwrite: true}, Path: "s.txt", LineEdit: translate.LineEdit{New: []string{"new"}}}},
			"s.txt=new sub/s.txt=old t.txt=t", []Status{Applied}, ""},
		{"delete", []translate.Operation{{Kind: translate.Delete, Path: "s.txt"}},
			"sub/s.txt=old t.txt=t", []Status{AlreadyApplied}, ""},
		{"recursive delete", []translate.Operation{{Kind: translate.Delete, FileOp: translate.FileOp{Recursive: true}, Path: "s.txt"}},
			"sub/s.txt=old t.txt=t", []Status{AlreadyApplied}, ""},
		{"move from a short name", []translate.Operation{{Kind: translate.Rename, Path: "s.txt", FileOp: translate.FileOp{NewPath: "u.txt"}}},
			"sub/s.txt=old t.txt=t", []Status{Failed}, ""},
		{"move to a short name", []translate.Operation{{Kind: translate.Rename, Path: "t.txt", FileOp: translate.FileOp{NewPath: "s.txt"}, FileCreate: translate.FileCreate{Overwrite: true}}},
			"s.txt=t sub/s.txt=old", []Status{Applied}, ""},
		{"chmod", []translate.Operation{{Kind: translate.Chmod, Path: "s.txt", FileOp: translate.FileOp{Executable: true}}},
			"sub/s.txt=old t.txt=t", []Status{Failed}, ""},
		{"edit", []translate.Operation{sr("s.txt", "old\n", "new\n")},
			"sub/s.txt=new t.txt=t", []Status{Applied}, "took sub/s.txt for s.txt"},
		// A name the reply has itself used is that path from then on.
		{"edit after creating the name", []translate.Operation{create("s.txt", "old\n"), sr("s.txt", "old\n", "new\n")},
			"s.txt=new sub/s.txt=old t.txt=t", []Status{Applied, Applied}, ""},
		{"edit after deleting the name", []translate.Operation{{Kind: translate.Delete, Path: "s.txt"}, sr("s.txt", "old\n", "new\n")},
			"sub/s.txt=old t.txt=t", []Status{AlreadyApplied, Failed}, ""},
		{"edit after moving the name away", []translate.Operation{
			{Kind: translate.Rename, Path: "t.txt", FileOp: translate.FileOp{NewPath: "s.txt"}}, {Kind: translate.Rename, Path: "s.txt", FileOp: translate.FileOp{NewPath: "u.txt"}}, sr("s.txt", "old\n", "new\n")},
			"sub/s.txt=old t.txt=t", []Status{Applied, Applied, Failed}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree, outs := resolveTree(t, base(), tt.ops...)
			if tree != tt.tree {
				t.Errorf("tree %q, want %q", tree, tt.tree)
			}
			for i, o := range outs {
				if i < len(tt.status) && o.Status != tt.status[i] {
					t.Errorf("edit %d: %s, want %s (%v)", i+1, o.Status, tt.status[i], o.Err)
				}
			}
			got := strings.Join(outs[0].Warnings, "; ")
			if tt.warn == "" && got != "" || !strings.Contains(got, tt.warn) {
				t.Errorf("warnings %q, want %q", got, tt.warn)
			}
		})
	}
}

// A backslash is a directory separator; a file really named with one
// wins; a Markdown escape is read as one only when that names a file
// and the separator reading does not (SPEC section 5).
func TestBackslashNames(t *testing.T) {
	tests := []struct {
		name string
		src  memSource
		op   translate.Operation
		tree string // "" when the edit fails
		warn string
		err  error
	}{
		{"new file with separators", files("x", "x\n"), create(`Models\Offer.cs`, "class Offer\n"),
			"Models/Offer.cs=class Offer x=x", "", nil},
		{"new file beside existing ones", files("Models/User.cs", "u\n"), create(`Models\Offer.cs`, "o\n"),
			"Models/Offer.cs=o Models/User.cs=u", "", nil},
		{"separator, not an escape", files("windows/__init__.py", "a\n"), sr(`windows\__init__.py`, "a\n", "b\n"),
			"windows/__init__.py=b", "", nil},
		{"separator, by suffix", files("pkg/windows/__init__.py", "a\n"), sr(`windows\__init__.py`, "a\n", "b\n"),
			"pkg/windows/__init__.py=b", `took pkg/windows/__init__.py for windows\__init__.py`, nil},
		{"a literal backslash wins", files(`a\b.txt`, "lit\n", "a/b.txt", "sep\n"), sr(`a\b.txt`, "lit\n", "x\n"),
			`a/b.txt=sep a\b.txt=x`, "", nil},
		{"a literal backslash overwritten", files(`a\b.txt`, "lit\n"), translate.Operation{Kind: translate.Create, FileCreate: translate.FileCreate{Overwrite: true}, Path: `a\b.txt`, LineEdit: translate.LineEdit{New: []string{"x"}}},
			`a\b.txt=x`, "", nil},
		{"an escaped underscore", files("my_file.py", "a\n"), sr(`my\_file.py`, "a\n", "b\n"),
			"my_file.py=b", "", nil},
		{"an escaped underscore, whole file", files("my_file.py", "a\n"), translate.Operation{Kind: translate.Create, FileCreate: translate.FileCreate{Overwrite: true}, Path: `my\_file.py`, LineEdit: translate.LineEdit{New: []string{"b"}}},
			"my_file.py=b", "", nil},
		{"an escaped asterisk", files("a*b.txt", "a\n"), sr(`a\*b.txt`, "a\n", "b\n"),
			"a*b.txt=b", "", nil},
		{"an escape at the start", files("_config.yml", "a\n"), sr(`\_config.yml`, "a\n", "b\n"),
			"_config.yml=b", "", nil},
		{"an escaped underscore, by suffix", files("pkg/my_file.py", "a\n"), sr(`my\_file.py`, "a\n", "b\n"),
			"pkg/my_file.py=b", `took pkg/my_file.py for my\_file.py`, nil},
		{"the separator reading wins over the escape", files("my_file.py", "a\n", "my/_file.py", "a\n"), sr(`my\_file.py`, "a\n", "b\n"),
			"my/_file.py=b my_file.py=a", "", nil},
		{"a new file is read with separators", files("x", "x\n"), create(`Views\_Layout.cshtml`, "l\n"),
			"Views/_Layout.cshtml=l x=x", "", nil},
		{"an escape naming no file stays a separator", files("x", "x\n"), sr(`\_config.yml`, "a\n", "b\n"),
			"", "", ErrUnsafePath},
		{"leaving through backslashes", files("x", "x\n"), create(`sub\..\..\x.txt`, "x\n"), "", "", ErrUnsafePath},
		{".git through backslashes", files("x", "x\n"), create(`a\.git\config`, "x\n"), "", "", ErrUnsafePath},
		{"a literal name holding .git", files(`a\.git\config`, "x\n"), sr(`a\.git\config`, "x\n", "y\n"), "", "", ErrUnsafePath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree, outs := resolveTree(t, tt.src, tt.op)
			o := outs[0]
			if tt.err != nil {
				if o.Status != Failed || !errors.Is(o.Err, tt.err) {
					t.Fatalf("status %s (%v), want a failure of kind %v", o.Status, o.Err, tt.err)
				}
				return
			}
			if o.Status != Applied {
				t.Fatalf("status %s: %v", o.Status, o.Err)
			}
			if tree != tt.tree {
				t.Errorf("tree %q, want %q", tree, tt.tree)
			}
			if got := strings.Join(o.Warnings, "; "); tt.warn == "" && got != "" || !strings.Contains(got, tt.warn) {
				t.Errorf("warnings %q, want %q", got, tt.warn)
			}
		})
	}
}

// Whether a path is a directory follows the reply: a file and a
// directory of one name never stand side by side in its tree, and a
// directory the reply emptied may become a file.
func TestDirectoriesFollowTheReply(t *testing.T) {
	del := func(p string) translate.Operation { return translate.Operation{Kind: translate.Delete, Path: p} }
	tests := []struct {
		name   string
		src    memSource
		ops    []translate.Operation
		tree   string
		status []Status
	}{
		{"a file where the reply made a directory", files("a", "a\n"), []translate.Operation{create("n/x", "x\n"), create("n", "y\n")},
			"a=a", []Status{Applied, Failed}},
		{"a file where the reply made a deeper directory", files("a", "a\n"), []translate.Operation{create("n/m/x", "x\n"), create("n/m", "y\n")},
			"a=a", []Status{Applied, Failed}},
		{"a directory where the reply made a file", files("a", "a\n"), []translate.Operation{create("n", "y\n"), create("n/x", "x\n")},
			"a=a", []Status{Applied, Failed}},
		{"a move onto a directory the reply made", files("a", "a\n"), []translate.Operation{create("n/x", "x\n"), {Kind: translate.Rename, Path: "a", FileOp: translate.FileOp{NewPath: "n"}}},
			"a=a", []Status{Applied, Failed}},
		{"a file where the reply emptied a directory", files("sub/only.txt", "o\n", "a", "a\n"), []translate.Operation{del("sub/only.txt"), create("sub", "y\n")},
			"a=a sub=y", []Status{Applied, Applied}},
		{"a file where the reply moved a directory's file away", files("sub/only.txt", "o\n"), []translate.Operation{{Kind: translate.Rename, Path: "sub/only.txt", FileOp: translate.FileOp{NewPath: "only.txt"}}, create("sub", "y\n")},
			"only.txt=o sub=y", []Status{Applied, Applied}},
		{"a directory still holding a file", files("sub/a.txt", "a\n", "sub/b.txt", "b\n"), []translate.Operation{del("sub/a.txt"), create("sub", "y\n")},
			"sub/a.txt=a sub/b.txt=b", []Status{Applied, Failed}},
		{"a recursive delete takes what the reply made", files("d/a.txt", "a\n", "k", "k\n"),
			[]translate.Operation{create("d/new.txt", "n\n"), {Kind: translate.Delete, FileOp: translate.FileOp{Recursive: true}, Path: "d"}, create("d", "f\n")},
			"d=f k=k", []Status{Applied, Applied, Applied}},
		{"a recursive delete of a directory only the reply made", files("k", "k\n"),
			[]translate.Operation{create("d/new.txt", "n\n"), {Kind: translate.Delete, FileOp: translate.FileOp{Recursive: true}, Path: "d"}},
			"k=k", []Status{Applied, Applied}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree, outs := resolveTree(t, tt.src, tt.ops...)
			if tree != tt.tree {
				t.Errorf("tree %q, want %q", tree, tt.tree)
			}
			for i, o := range outs {
				if o.Status != tt.status[i] {
					t.Errorf("edit %d: %s, want %s (%v)", i+1, o.Status, tt.status[i], o.Err)
				}
				if o.Status == Failed && !errors.Is(o.Err, ErrUnsafePath) {
					t.Errorf("edit %d: %v, want an unsafe path", i+1, o.Err)
				}
			}
		})
	}
}

// FuzzReadings: whatever a reply names, every reading the engine may
// use is a clean path inside the repository that git accepts on every
// platform, and a refused name says why.
func FuzzReadings(f *testing.F) {
	for _, s := range []string{"a.py", `Models\Offer.cs`, `my\_file.py`, `\_config.yml`, `a\\b`, `sub\..\..\x`,
		".git/config", "git~1/x", ".git::$INDEX_ALLOCATION", ".g\u200cit/x", `a\.git\x`, "C:x", "a//b/./c", "..\\x", "\\\\srv\\x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		rs, written := readings(name)
		if written < 0 || written >= len(rs) {
			t.Fatalf("written = %d of %d readings", written, len(rs))
		}
		for _, rd := range rs {
			if rd.err != nil {
				if !errors.Is(rd.err, ErrUnsafePath) {
					t.Errorf("%q: error %v is not an unsafe path", name, rd.err)
				}
				continue
			}
			p := rd.path
			if p == "" || p[0] == '/' || p[0] == '\\' || len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
				t.Errorf("%q: reading %q is not relative", name, p)
			}
			for _, c := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
				if c == "." || c == ".." || strings.EqualFold(c, ".git") || isDotGit(c) {
					t.Errorf("%q: reading %q holds %q", name, p, c)
				}
			}
			if strings.Contains(p, "//") || strings.HasSuffix(p, "/") || strings.HasPrefix(p, "./") {
				t.Errorf("%q: reading %q is not clean", name, p)
			}
			for _, c := range p {
				if c < 0x20 || c == 0x7f {
					t.Errorf("%q: reading %q holds a control character", name, p)
				}
			}
		}
	})
}
