package gitops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// attrFixture writes attributes files of every kind git reads on adding
// a file, and returns paths they say different things about.
func attrFixture(t *testing.T) (*testRepo, []string) {
	tr := newTestRepo(t)
	tr.write(".gitattributes", strings.Join([]string{
		"# a comment",
		"*.txt text",
		"*.crlf text eol=crlf",
		"*.lf eol=lf",
		"*.auto text=auto",
		"*.bin binary",
		"*.both text binary",  // binary, later on the line, wins
		"*.both2 binary text", // text wins
		"*.mac mytext",
		"[attr]mytext text eol=crlf -diff",
		"*.reset text",
		"*.reset !text",
		"*.unset text",
		"*.unset -text",
		"/top.only text",
		"docs/**/*.md eol=crlf",
		"**/deep.x filter=lfs",
		"dir/ text",      // a directory pattern: matches no file
		"!neg.txt -text", // negative patterns are ignored
		`"with space.q" text`,
		`"tab\there.q" ident`,
		"*.val crlf=input my.attr=some_value",
		"bad.attr te$t", // an invalid name: the whole line is ignored
		"*.UP text",
		"\xef\xbb\xbfnot-first.bom text",
	}, "\n")+"\n", 0o644)
	tr.write("sub/.gitattributes", "*.txt -text\n*.sub text eol=lf\n[attr]submac text\n*.sm submac\ntop.only -text\n", 0o644)
	tr.write("sub/deeper/.gitattributes", "/rooted.y ident\n*.lf !eol\n", 0o644)
	tr.write(".git/info/attributes", "*.info text\ninfo.txt -text\n", 0o644)
	global := filepath.Join(tr.home, "attributes")
	if err := os.WriteFile(global, []byte("*.glob text\n*.txt eol=crlf\n[attr]gmac ident\n*.gm gmac\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr.git("config", "core.attributesFile", global)
	return tr, []string{
		"a.txt", "a.crlf", "a.lf", "a.auto", "a.bin", "a.both", "a.both2", "a.mac", "a.reset", "a.unset",
		"top.only", "sub/top.only", "docs/a.md", "docs/x/y/a.md", "a.md", "deep.x", "sub/deep.x",
		"dir", "dir/a", "neg.txt", "with space.q", "tab\there.q", "a.val", "bad.attr", "a.up", "A.UP",
		"not-first.bom", "sub/a.txt", "sub/a.sub", "sub/a.sm", "sub/deeper/rooted.y", "rooted.y",
		"sub/deeper/x/rooted.y", "sub/deeper/a.lf", "a.info", "info.txt", "a.glob", "a.gm", "none",
	}
}

// TestAttrValuesMatchGit compares the attributes read here with what
// git check-attr computes for the same paths (the working tree's
// files first, as git add reads them), with and without core.ignoreCase.
func TestAttrValuesMatchGit(t *testing.T) {
	t.Parallel()
	tr, paths := attrFixture(t)
	names := []string{"text", "eol", "crlf", "diff", "merge", "ident", "filter", "mytext", "my.attr", "submac", "binary"}
	for _, fold := range []bool{false, true} {
		if fold {
			tr.git("config", "core.ignoreCase", "true")
		}
		src, err := tr.open(tr.dir).WorktreeSource()
		if err != nil {
			t.Fatal(err)
		}
		ws := src.(*worktreeSource)
		out := tr.gitEnv(tr.dir, nil, strings.Join(paths, "\x00")+"\x00", append([]string{"check-attr", "-z", "--stdin"}, names...)...)
		f := strings.Split(out, "\x00")
		want := map[string]map[string]string{}
		for i := 0; i+2 < len(f); i += 3 {
			if want[f[i]] == nil {
				want[f[i]] = map[string]string{}
			}
			want[f[i]][f[i+1]] = f[i+2]
		}
		for _, p := range paths {
			st, err := ws.attrs.stack(p)
			if err != nil {
				t.Fatal(err)
			}
			got := st.values(p, fold, names...)
			for _, n := range names {
				g := got[n]
				switch g {
				case attrSet:
					g = "set"
				case attrUnset:
					g = "unset"
				case attrUnspecified:
					g = "unspecified"
				}
				if w := want[p][n]; g != w {
					t.Errorf("ignoreCase %v: %q: %s = %q, git says %q", fold, p, n, g, w)
				}
			}
		}
	}
}

// A .gitattributes missing from the working tree (a sparse checkout)
// is read from the index; one that is a symbolic link is not followed.
func TestAttrFilesFromIndex(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	tr.write("sub/.gitattributes", "*.txt text\n", 0o644)
	tr.write("sub/a.txt", "a\r\n", 0o644)
	tr.write("target", "*.md text\n", 0o644)
	tr.symlink("target", ".gitattributes")
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "attributes")
	if err := os.Remove(filepath.Join(tr.dir, "sub", ".gitattributes")); err != nil {
		t.Fatal(err)
	}
	tr.write("b.md", "b\r\n", 0o644)
	src, err := tr.open(tr.dir).WorktreeSource()
	if err != nil {
		t.Fatal(err)
	}
	ids := gitAddIDs(tr, []string{"sub/a.txt", "b.md"})
	for p, want := range map[string]string{"sub/a.txt": "a\n", "b.md": "b\r\n"} {
		data, err := src.Read(p)
		if err != nil || string(data) != want {
			t.Errorf("Read(%s) = %q, %v, want %q", p, data, err, want)
		}
		if id := oid.Sum(oid.Blob, data).String(); id != ids[p] {
			t.Errorf("Read(%s): %s, git add stores %s", p, id, ids[p])
		}
	}
}

func TestUnquoteC(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][2]string{
		`"a b" rest`:          {"a b", " rest"},
		`"t\tq\"\\\101"`:      {"t\tq\"\\A", ""},
		`"\a\b\f\n\r\v"x`:     {"\a\b\f\n\r\v", "x"},
		`"unterminated`:       {"", "bad"},
		`"bad \q"`:            {"", "bad"},
		`"short octal \1"`:    {"", "bad"},
		`"octal \400 big"`:    {"", "bad"},
		`plain`:               {"", "bad"},
		`"trailing slash\`:    {"", "bad"},
		`""`:                  {"", ""},
		`"\303\251t\303\251"`: {"été", ""},
	} {
		got, rest, ok := unquoteC(in)
		if want[1] == "bad" {
			if ok {
				t.Errorf("unquoteC(%q) = %q, %q; want a failure", in, got, rest)
			}
			continue
		}
		if !ok || got != want[0] || rest != want[1] {
			t.Errorf("unquoteC(%q) = %q, %q, %v; want %q, %q", in, got, rest, ok, want[0], want[1])
		}
	}
}
