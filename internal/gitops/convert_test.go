package gitops

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// gitAddIDs returns the blob id git add stores for each path, adding
// them to a copy of the index that HEAD's tree fills with no stat data,
// so that git hashes every file again and its "safe autocrlf" rule sees
// the committed blobs.
func gitAddIDs(tr *testRepo, paths []string) map[string]string {
	tr.t.Helper()
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tr.t.TempDir(), "index")}
	tr.gitEnv(tr.dir, env, "", "read-tree", "HEAD")
	tr.gitEnv(tr.dir, env, strings.Join(paths, "\x00")+"\x00", "add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul")
	ids := map[string]string{}
	for _, rec := range strings.Split(tr.gitEnv(tr.dir, env, "", "ls-files", "-s", "-z"), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 {
			ids[path] = f[1]
		}
	}
	return ids
}

// TestWorktreeCleanMatchesGitAdd: what Read gives for a working tree
// file hashes to the blob git add stores, for each line-ending
// attribute, core.autocrlf setting and kind of content, with the file
// committed as it is (so that text=auto keeps its CR LF) or new.
func TestWorktreeCleanMatchesGitAdd(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	contents := map[string]string{
		"lf":     "a\nb\n",
		"crlf":   "a\r\nb\r\n",
		"mixed":  "a\r\nb\nc\r\n",
		"lonecr": "a\rb\r\n",
		"nul":    "a\x00\r\nb\r\n",
		"ctrl":   "\x01\x02\x03\r\n",
		"eof":    "a\r\nb\x1a",
		"empty":  "",
		"ident":  "x $Id: 1234 $\r\ny $Id$\nz $Id: split\n$ w $Id:$\n",
		"ident2": "$Id:$Id:$\n",
	}
	exts := []string{"plain", "text", "crlf", "lf", "input", "auto", "autocrlf", "autolf", "bin", "minus",
		"oldcrlf", "oldinput", "oldminus", "oldauto", "id", "idtext", "unspec", "eolminus"}
	var tracked, fresh []string
	for name, content := range contents {
		for _, ext := range exts {
			p := "f-" + name + "." + ext
			tr.write(p, content, 0o644)
			tr.write("new/"+p, content, 0o644)
			tracked, fresh = append(tracked, p), append(fresh, "new/"+p)
		}
	}
	tr.git("add", "--", ".") // no attributes yet: stored as they are
	tr.git("commit", "-q", "-m", "raw")
	tr.git("rm", "-q", "--cached", "-r", "new")
	tr.git("commit", "-q", "-m", "new files are untracked")
	tr.write(".gitattributes", strings.Join([]string{
		"*.text text", "*.crlf text eol=crlf", "*.lf text eol=lf", "*.input text=input", "*.auto text=auto",
		"*.autocrlf text=auto eol=crlf", "*.autolf text=auto eol=lf", "*.bin binary", "*.minus -text",
		"*.oldcrlf crlf", "*.oldinput crlf=input", "*.oldminus -crlf", "*.oldauto crlf=auto",
		"*.id ident", "*.idtext ident text", "*.unspec text", "*.unspec !text", "*.eolminus -text eol=crlf",
	}, "\n")+"\n", 0o644)
	all := append(append([]string{}, tracked...), fresh...)
	for _, autocrlf := range []string{"", "false", "true", "input"} {
		if autocrlf != "" {
			tr.git("config", "core.autocrlf", autocrlf)
		}
		src, err := tr.open(tr.dir).WorktreeSource()
		if err != nil {
			t.Fatal(err)
		}
		want := gitAddIDs(tr, all)
		if autocrlf == "" {
			// The rules at work, besides agreeing with git.
			for p, content := range map[string]string{
				"f-crlf.text":       "a\nb\n",
				"f-lonecr.text":     "a\rb\n",
				"f-crlf.auto":       "a\r\nb\r\n", // committed with CR LF: kept
				"new/f-crlf.auto":   "a\nb\n",
				"new/f-lonecr.auto": "a\rb\r\n", // looks binary
				"f-crlf.bin":        "a\r\nb\r\n",
				"f-ident.id":        "x $Id$\r\ny $Id$\nz $Id: split\n$ w $Id$\n",
				"f-ident2.id":       "$Id$Id:$\n", // git's ident_to_git is no fixed point
			} {
				if data, err := src.Read(p); err != nil || string(data) != content {
					t.Errorf("Read(%s) = %q, %v, want %q", p, data, err, content)
				}
			}
		}
		for _, p := range all {
			data, err := src.Read(p)
			if err != nil {
				t.Errorf("autocrlf %q: Read(%s): %v", autocrlf, p, err)
				continue
			}
			if got := oid.Sum(oid.Blob, data).String(); got != want[p] {
				t.Errorf("autocrlf %q: Read(%s) = %q, but git add stores %s (%q)", autocrlf, p, data, want[p], tr.git("cat-file", "-p", want[p]))
			}
		}
	}
}

// A configured clean filter, or a working-tree-encoding, would need
// what git llm-apply does not run: ErrConversion naming the path and
// the attribute. A filter attribute naming no configured driver, or a
// driver with only a smudge command, changes nothing, as for git.
func TestWorktreeCleanRefuses(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	tr.write(".gitattributes", "*.lfs filter=lfs\n*.proc filter=proc\n*.none filter=none\n*.smudge filter=sm\n*.u16 working-tree-encoding=UTF-16\n*.u8 working-tree-encoding=utf-8\n", 0o644)
	tr.git("config", "filter.lfs.clean", "git-lfs clean -- %f")
	tr.git("config", "filter.proc.process", "git-lfs filter-process")
	tr.git("config", "filter.sm.smudge", "cat")
	for _, p := range []string{"a.lfs", "a.proc", "a.none", "a.smudge", "a.u16", "a.u8"} {
		tr.write(p, "x\r\n", 0o644)
	}
	src, err := tr.open(tr.dir).WorktreeSource()
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		"a.lfs":  "a.lfs has the attribute filter=lfs, and filter.lfs.clean configures",
		"a.proc": "a.proc has the attribute filter=proc, and filter.proc.process configures",
		"a.u16":  "a.u16 has the attribute working-tree-encoding=UTF-16",
	} {
		if _, err := src.Read(p); !errors.Is(err, ErrConversion) || !strings.Contains(err.Error(), want) {
			t.Errorf("Read(%s) = %v, want ErrConversion saying %q", p, err, want)
		}
	}
	for _, p := range []string{"a.none", "a.smudge", "a.u8"} {
		if data, err := src.Read(p); err != nil || string(data) != "x\r\n" {
			t.Errorf("Read(%s) = %q, %v, want the file as it is", p, data, err)
		}
	}
}

// FuzzCheckin: no panic; a conversion only removes CRs (one before
// each LF for text, as git: "\r\r\n" keeps one), and ident only
// shortens what holds "$Id:".
func FuzzCheckin(f *testing.F) {
	f.Add([]byte("a\r\nb\rc\n$Id: x $\r\n"), []byte("a\r\n"))
	f.Add([]byte("\x00\r\n"), []byte(""))
	f.Add([]byte("$Id:$Id:$"), []byte(""))
	f.Fuzz(func(t *testing.T, data, staged []byte) {
		for _, c := range []checkin{{crlf: crlfText}, {crlf: crlfAuto}, {crlf: crlfBinary, ident: true}} {
			out, err := c.clean(context.Background(), "p", data, func() ([]byte, error) { return staged, nil })
			if err != nil {
				t.Fatal(err)
			}
			if c.crlf == crlfText && bytes.Count(out, []byte("\r\n")) > bytes.Count(data, []byte("\r\r\n")) {
				t.Fatalf("text: %q left CR LF in %q", data, out)
			}
			if c.crlf != crlfBinary && !bytes.Equal(bytes.ReplaceAll(out, []byte("\r"), nil), bytes.ReplaceAll(data, []byte("\r"), nil)) {
				t.Fatalf("%v: %q became %q", c.crlf, data, out)
			}
			// Not a fixed point: git's ident_to_git, which this follows,
			// turns "$Id:$Id:$" into "$Id$Id:$" and that into "$Id$Id$".
			if c.ident && (len(out) > len(data) || !bytes.Contains(data, []byte("$Id:")) && !bytes.Equal(out, data)) {
				t.Fatalf("ident: %q became %q", data, out)
			}
		}
	})
}

// FuzzParseAttrs: any attributes file parses, and looking a path up
// in it does not panic.
func FuzzParseAttrs(f *testing.F) {
	f.Add([]byte("*.txt text eol=crlf\n[attr]m -text\n\"q\\tx\" m\n!neg x\ndir/ y\n"), "a/b.txt")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		lines := parseAttrs(data, true)
		st := attrStack{&builtinAttrs, &attrFile{lines: lines}, &attrFile{base: "a", lines: lines}}
		st.values(path, true, "text", "eol")
		st.values(path, false, "text", "eol")
	})
}
