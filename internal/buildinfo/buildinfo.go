// Package buildinfo says which source a binary of the module was built
// from: git llm-apply version, and the MCP server's handshake.
package buildinfo

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// pseudoVersion matches the end of a Go pseudo-version
// (v0.0.0-20260301100000-21c9f5f6ab12, v1.2.4-0.20260301100000-...):
// the commit time and the 12-digit commit prefix.
var pseudoVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[-.])(\d{14})-([0-9a-f]{12})(?:\+.*)?$`) })

// Describe says which source a binary was built from. A clean
// release tag is printed as it is; anything else names the commit and
// its date, from the VCS stamp go build writes in a checkout, or from
// the pseudo-version go install pkg@commit records (which has no VCS
// stamp). Uncommitted changes add -dirty to the commit, as
// git describe --dirty does: the date is the commit's, the changes
// came after it.
func Describe(info *debug.BuildInfo) string {
	if info == nil {
		return "unknown (no build information)"
	}
	version := info.Main.Version
	var rev, date string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			date = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if strings.HasSuffix(version, "+dirty") {
		dirty = true
		version = strings.TrimSuffix(version, "+dirty")
	}
	if m := pseudoVersion().FindStringSubmatch(version); m != nil {
		if rev == "" {
			rev = m[2]
			if t, err := time.Parse("20060102150405", m[1]); err == nil {
				date = t.UTC().Format(time.RFC3339)
			}
		}
	} else if version != "" && version != "(devel)" && !dirty {
		return version
	}
	if rev == "" {
		if version != "" && version != "(devel)" {
			return version + "-dirty"
		}
		return "unknown (the build has no version control stamp: go build -buildvcs=false, or a checkout go does not stamp, such as a linked worktree)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	if date == "" {
		return rev
	}
	return fmt.Sprintf("%s (%s)", rev, date)
}
