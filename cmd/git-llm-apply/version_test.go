package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribeBuild(t *testing.T) {
	t.Parallel()
	stamp := func(version string, settings ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/git-llm-apply/git-llm-apply", Version: version}}
		for i := 0; i+1 < len(settings); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return info
	}
	const rev = "21c9f5f6ab12e4c1d0a9b8c7d6e5f4a3b2c1d0e9"
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"release tag", stamp("v1.2.0"), "v1.2.0"},
		{"release tag with its stamp", stamp("v1.2.0", "vcs.revision", rev, "vcs.time", "2026-03-01T10:00:00Z", "vcs.modified", "false"), "v1.2.0"},
		{"tag, uncommitted changes", stamp("v1.2.0+dirty", "vcs.revision", rev, "vcs.time", "2026-03-01T10:00:00Z", "vcs.modified", "true"),
			"21c9f5f6ab12-dirty (2026-03-01T10:00:00Z)"},
		{"pseudo-version from go install pkg@commit", stamp("v0.0.0-20260301100000-21c9f5f6ab12"), "21c9f5f6ab12 (2026-03-01T10:00:00Z)"},
		{"pseudo-version after a tag", stamp("v1.2.1-0.20260301100000-21c9f5f6ab12"), "21c9f5f6ab12 (2026-03-01T10:00:00Z)"},
		{"pseudo-version with its stamp", stamp("v0.0.0-20260301100000-21c9f5f6ab12", "vcs.revision", rev, "vcs.time", "2026-03-01T10:00:00Z", "vcs.modified", "false"),
			"21c9f5f6ab12 (2026-03-01T10:00:00Z)"},
		{"pseudo-version, dirty", stamp("v0.0.0-20260301100000-21c9f5f6ab12+dirty", "vcs.revision", rev, "vcs.time", "2026-03-01T10:00:00Z", "vcs.modified", "true"),
			"21c9f5f6ab12-dirty (2026-03-01T10:00:00Z)"},
		{"devel with a stamp", stamp("(devel)", "vcs.revision", rev, "vcs.time", "2026-03-01T10:00:00Z", "vcs.modified", "false"), "21c9f5f6ab12 (2026-03-01T10:00:00Z)"},
		{"devel with a dirty stamp", stamp("(devel)", "vcs.revision", rev, "vcs.time", "2026-03-01T10:00:00Z", "vcs.modified", "true"),
			"21c9f5f6ab12-dirty (2026-03-01T10:00:00Z)"},
		{"no stamp at all", stamp("(devel)"), "unknown (the build has no version control stamp: go build -buildvcs=false, or a checkout go does not stamp, such as a linked worktree)"},
		{"no build information", nil, "unknown (no build information)"},
	} {
		if got := describeBuild(tc.info); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// --version and version print the same line, which never stops at
// "(devel)". The e2e binary is built by TestMain, whose go build may
// write no VCS stamp (GOFLAGS=-buildvcs=false, or a linked worktree,
// which go does not stamp); so the test also builds one from a clone of
// this checkout with -buildvcs=true and checks that it names the
// clone's commit and date, and -dirty once a file changed. Those builds
// take binary's flags (no -trimpath, which would compile the standard
// library again, minutes on a busy machine), so they share its build
// cache: only this module's packages compile, once, and the dirty
// build only links again.
func TestVersion(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	// The built binary's: the build information is its process's.
	flag, cmd := r.runBinary("--version"), r.runBinary("version")
	if flag.code != 0 || cmd.code != 0 || flag.stdout != cmd.stdout || flag.stderr != "" {
		t.Fatalf("--version: exit %d %q %q; version: exit %d %q", flag.code, flag.stdout, flag.stderr, cmd.code, cmd.stdout)
	}
	if !strings.HasPrefix(flag.stdout, "git llm-apply version ") || strings.Contains(flag.stdout, "(devel)") {
		t.Errorf("--version: %q", flag.stdout)
	}
	if res := r.runBinary("--version", "apply"); res.code != 0 || res.stdout != flag.stdout {
		t.Errorf("--version apply: exit %d %q", res.code, res.stdout)
	}

	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", "--shared", strings.TrimSpace(string(top)), clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	gitIn := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", clone}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	head, date := gitIn("rev-parse", "HEAD"), gitIn("log", "-1", "--format=%cd", "--date=iso-strict-local")
	build := func() string {
		bin := filepath.Join(t.TempDir(), "git-llm-apply")
		b := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/git-llm-apply")
		b.Dir = clone
		b.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true", "TZ=UTC")
		if out, err := b.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, "--version").Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	tz := exec.Command("git", "-C", clone, "log", "-1", "--format=%cd", "--date=iso-strict-local")
	tz.Env = append(os.Environ(), "TZ=UTC")
	if out, err := tz.Output(); err == nil {
		date = strings.Replace(strings.TrimSpace(string(out)), "+00:00", "Z", 1)
	}
	want := "git llm-apply version " + head[:12] + " (" + date + ")"
	if got := build(); got != want {
		t.Errorf("clean build: %q, want %q", got, want)
	}
	os.WriteFile(filepath.Join(clone, "README.md"), []byte("changed\n"), 0o644)
	want = "git llm-apply version " + head[:12] + "-dirty (" + date + ")"
	if got := build(); got != want {
		t.Errorf("dirty build: %q, want %q", got, want)
	}
}
