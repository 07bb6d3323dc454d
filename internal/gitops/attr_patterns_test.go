package gitops

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Attribute patterns come from the repository, so they are matched as
// git matches them, hostile ones included (SPEC section 5, "Repository
// code"): these tests hold the matcher to git check-attr.

// patternAlphabet and pathAlphabet make patterns and paths that reach
// every corner of wildmatch: stars, classes (POSIX ones too), escapes,
// ranges, slashes, and letters in both cases.
const (
	patternAlphabet = "ab/*?[]!^-:\\Ax1."
	pathAlphabet    = "ab/Ax1.-]["
)

// TestAttrPatternsMatchGit gives git check-attr and the attribute
// reader the same random patterns, one attribute each, and compares
// which patterns every random path matches, with and without
// core.ignoreCase.
func TestAttrPatternsMatchGit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3070, 1))
	var patterns []string
	for len(patterns) < 400 {
		if p := randomPattern(rng); p != "" {
			patterns = append(patterns, p)
		}
	}
	// Named shapes: the exponential one of the issue, POSIX classes,
	// and classes that never close.
	patterns = append(patterns, strings.Repeat("*a", 12)+"*b", "x[[:digit:]]", "[[:upper:]]*", "a[b", "**/a*/**", "a/**/b", "*[!a]")
	var paths []string
	for len(paths) < 300 {
		if p := randomPath(rng); p != "" {
			paths = append(paths, p)
		}
	}
	paths = append(paths, strings.Repeat("a", 30), "x7", "Ab", "a/b", "a/x/y/b", "A/B")
	compareAttrPatterns(t, newTestRepo(t), patterns, paths)
}

// FuzzAttrPatternGit compares one pattern and one path with git
// check-attr (each input runs git, so it is slow: a few hundred inputs
// a second).
func FuzzAttrPatternGit(f *testing.F) {
	for _, s := range [][2]string{
		{"*a*a*a*b", "aaaa"}, {"x[[:digit:]]", "x1"}, {"a[b", "a[b"}, {"**/b", "a/b"},
		{"A*", "ab"}, {"[!a-]", "-"}, {`\a`, "a"}, {"a/*", "a/b"},
	} {
		f.Add(s[0], s[1])
	}
	// One repository for every input of this process: each input's t
	// takes its turn as the repository's.
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	tr := &testRepo{dir: filepath.Join(base, "repo"), home: base}
	tr.env = testEnv(tr.home)
	init := exec.Command("git", "init", "-q", tr.dir)
	init.Env = tr.env
	if out, err := init.CombinedOutput(); err != nil {
		f.Fatalf("git init: %v\n%s", err, out)
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if !usablePattern(pattern) || !usablePath(path) || len(pattern) > 40 || len(path) > 60 {
			return
		}
		compareAttrPatterns(t, tr, []string{pattern}, []string{path})
	})
}

func randomPattern(rng *rand.Rand) string {
	var b strings.Builder
	for n := 1 + rng.IntN(8); n > 0; n-- {
		b.WriteByte(patternAlphabet[rng.IntN(len(patternAlphabet))])
	}
	if rng.IntN(6) == 0 {
		b.WriteString([]string{"[:digit:]]", "[[:alpha:]]", "[[:upper:][:punct:]]", "[[:nope:]]", "**/"}[rng.IntN(5)])
	}
	if p := b.String(); usablePattern(p) {
		return p
	}
	return ""
}

func randomPath(rng *rand.Rand) string {
	var b strings.Builder
	for n := 1 + rng.IntN(10); n > 0; n-- {
		b.WriteByte(pathAlphabet[rng.IntN(len(pathAlphabet))])
	}
	if p := b.String(); usablePath(p) {
		return p
	}
	return ""
}

// usablePattern: a pattern that stands alone as the first word of an
// attributes line, as written (no quoting, no comment, no negation, no
// macro, nothing git trims).
func usablePattern(p string) bool {
	return p != "" && !strings.ContainsAny(p, " \t\r\n\x00\"") && p[0] != '#' && p[0] != '!' &&
		!strings.HasPrefix(p, "[attr]") && !strings.HasSuffix(p, "/")
}

// usablePath: a path check-attr takes as it is (no empty, "." or ".."
// component, no leading or trailing slash).
func usablePath(p string) bool {
	if p == "" || strings.ContainsAny(p, "\x00\n\r\\") {
		return false
	}
	for _, c := range strings.Split(p, "/") {
		if c == "" || c == "." || c == ".." {
			return false
		}
	}
	return true
}

func compareAttrPatterns(t *testing.T, tr *testRepo, patterns, paths []string) {
	t.Helper()
	saved := tr.t
	tr.t = t
	defer func() { tr.t = saved }()
	var lines, names []string
	for i, p := range patterns {
		name := fmt.Sprintf("p%d", i)
		lines = append(lines, p+" "+name)
		names = append(names, name)
	}
	data := strings.Join(lines, "\n") + "\n"
	tr.write(".gitattributes", data, 0o644)
	st := attrStack{&attrFile{lines: parseAttrs([]byte(data), true)}}
	for _, fold := range []bool{false, true} {
		out := tr.gitEnv(tr.dir, nil, strings.Join(paths, "\x00")+"\x00",
			append([]string{"-c", fmt.Sprintf("core.ignoreCase=%v", fold), "check-attr", "-z", "--stdin"}, names...)...)
		f := strings.Split(out, "\x00")
		gitSet := map[[2]string]bool{}
		for i := 0; i+2 < len(f); i += 3 {
			if f[i+2] == "set" {
				gitSet[[2]string{f[i], f[i+1]}] = true
			}
		}
		for _, p := range paths {
			got := st.values(p, fold, names...)
			for i, n := range names {
				if ours, theirs := got[n] == attrSet, gitSet[[2]string{p, n}]; ours != theirs {
					t.Errorf("ignoreCase %v: pattern %q, path %q: matched %v, git check-attr says %v", fold, patterns[i], p, ours, theirs)
				}
			}
		}
	}
}
