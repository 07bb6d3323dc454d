package engine

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestReadAbsolute: an absolute path is read as the system that wrote
// it reads it (SPEC section 5).
func TestReadAbsolute(t *testing.T) {
	cases := []struct {
		name, clean string
		windows     bool
		refused     string // part of the refusal ("" when read)
	}{
		{name: "/home/dev/proj/a.py", clean: "/home/dev/proj/a.py"},
		{name: "/home/dev/./proj//a.py", clean: "/home/dev/proj/a.py"},
		{name: "/home/dev/proj/../other/a.py", clean: "/home/dev/other/a.py"},
		{name: "/../a.py", clean: "/a.py"},
		{name: `/home/dev/a\b.py`, clean: `/home/dev/a\b.py`}, // a POSIX name may hold a backslash
		{name: `C:\Users\me\proj\api\pom.xml`, clean: "c:/Users/me/proj/api/pom.xml", windows: true},
		{name: `c:\Apps\proj\src\x.ts`, clean: "c:/Apps/proj/src/x.ts", windows: true},
		{name: `C:/Apps/proj/src/x.ts`, clean: "c:/Apps/proj/src/x.ts", windows: true},
		{name: `C:\Apps/proj\src/x.ts`, clean: "c:/Apps/proj/src/x.ts", windows: true},
		{name: `D:\work\proj\`, clean: "d:/work/proj", windows: true},
		{name: `C:\proj\..\other\a.txt`, clean: "c:/other/a.txt", windows: true},
		{name: `C:\..\..\a.txt`, clean: "c:/a.txt", windows: true},
		{name: `C:\`, clean: "c:/", windows: true},
		{name: `C:/`, clean: "c:/", windows: true},
		{name: `\\server\share\x`, refused: "UNC path"},
		{name: `\\server`, refused: "UNC path"},
		{name: `\/server/share`, refused: "UNC path"},
		{name: `/\server\share`, refused: "UNC path"},
		{name: `\\?\C:\x`, refused: "device path"},
		{name: `//?/C:/x`, refused: "device path"},
		{name: `\\.\pipe\x`, refused: "device path"},
		{name: `\??\C:\x`, refused: "device path"},
		{name: `C:foo\a.txt`, refused: "current directory of drive C:"},
		{name: `c:`, refused: "current directory of drive c:"},
		{name: `\proj\a.txt`, refused: "current drive"},
	}
	for _, c := range cases {
		if !isAbsolute(c.name) {
			t.Errorf("%s: not read as absolute", c.name)
			continue
		}
		a, err := readAbsolute(c.name)
		if c.refused != "" {
			if err == nil || !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), strconv.Quote(c.name)) {
				t.Errorf("%s: %+v %v, want refused by name with %q", c.name, a, err, c.refused)
			}
			continue
		}
		if err != nil || a.clean != c.clean || a.windows != c.windows {
			t.Errorf("%s: %+v %v, want %q windows=%v", c.name, a, err, c.clean, c.windows)
		}
	}
	for _, rel := range []string{"a.py", `src\a.py`, "./C:/x", "", "~/a.py", `\_config.yml`, `\#notes.md`} {
		if isAbsolute(rel) {
			t.Errorf("%q read as absolute", rel)
		}
	}
}

func TestBelowAndHolds(t *testing.T) {
	win := func(s string) absPath { a, _ := readAbsolute(s); return a }
	cases := []struct {
		p, top string
		rest   string // "" when not below
	}{
		{`/home/dev/proj/a.py`, `/home/dev/proj`, "a.py"},
		{`/home/dev/proj/a.py`, `/home/dev/pro`, ""},
		{`/home/dev/proj`, `/home/dev/proj`, ""},
		{`/home/Dev/proj/a.py`, `/home/dev/proj`, ""}, // POSIX names keep their case
		{`C:\Users\ME\proj\Src\a.py`, `c:\users\me\proj`, "Src/a.py"},
		{`C:\Users\me\proj\a.py`, `D:\Users\me\proj`, ""},
		{`C:\a.py`, `C:\`, "a.py"},
		{`/proj/a.py`, `C:\proj`, ""},
	}
	for _, c := range cases {
		rest, ok := below(win(c.p), win(c.top))
		if rest != c.rest || ok != (c.rest != "") {
			t.Errorf("below(%s, %s) = %q %v, want %q", c.p, c.top, rest, ok, c.rest)
		}
	}
	if !holds("c:/Users", "c:/users/me") || holds("c:/us", "c:/users") || !holds("/", "/a") || holds("/a/b", "/a") {
		t.Error("holds")
	}
	if got := strings.Join(ancestors("c:/a/b"), " "); got != "c:/a/b c:/a c:/" {
		t.Errorf("ancestors: %s", got)
	}
	if got := strings.Join(ancestors("/a/b"), " "); got != "/a/b /a /" {
		t.Errorf("ancestors: %s", got)
	}
}

// FuzzReadAbsolute: reading any absolute name either refuses it (an
// unsafe path naming it) or gives a clean path of its system, which
// every directory above it holds, and whose part below any of them is
// a clean relative path.
func FuzzReadAbsolute(f *testing.F) {
	for _, s := range []string{`/home/dev/a.py`, `C:\Users\a.py`, `c:/x/../y`, `\\server\share`, `\\?\C:\x`, `C:x`, `\x`, `/../..`, `C:\a/b\..\c`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !isAbsolute(name) {
			return
		}
		a, err := readAbsolute(name)
		if err != nil {
			if !errors.Is(err, ErrUnsafePath) {
				t.Fatalf("%q: %v is no unsafe path", name, err)
			}
			return
		}
		if a.windows != isWindowsClean(a.clean) {
			t.Fatalf("%q: %+v", name, a)
		}
		rooted := strings.HasPrefix(a.clean, "/") || a.windows && strings.HasPrefix(a.clean[2:], "/")
		if !rooted || strings.Contains(a.clean, "/../") || strings.HasSuffix(a.clean, "/..") || a.windows && strings.Contains(a.clean, `\`) {
			t.Fatalf("%q: not clean: %q", name, a.clean)
		}
		for _, d := range ancestors(a.clean)[1:] {
			if !holds(d, a.clean) {
				t.Fatalf("%q: %s does not hold %s", name, d, a.clean)
			}
			rest, ok := below(a, absPath{clean: d, windows: a.windows})
			if !ok || rest == "" || strings.HasPrefix(rest, "/") || rest == ".." || strings.HasPrefix(rest, "../") {
				t.Fatalf("%q: below %s: %q %v", name, d, rest, ok)
			}
		}
	})
}
