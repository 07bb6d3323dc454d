package index

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	goindex "github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// benchEntries is the size of the index of the benchmarks, a large
// repository's.
const benchEntries = 100_000

// benchIndex has git write an index of benchEntries files in version
// v (distinct made-up blob ids: git does not check they exist) and
// returns its path and benchLookups paths of it.
func benchIndex(b testing.TB, v string) (string, []string) {
	b.Helper()
	dir := b.TempDir()
	file := filepath.Join(dir, "index")
	env := append(testEnv(dir), "GIT_INDEX_FILE="+file)
	var info strings.Builder
	var wanted []string
	for i := range benchEntries {
		p := fmt.Sprintf("pkg%03d/internal%d/file%05d.go", i/1000, i/100%10, i)
		id := sha1.Sum([]byte(p))
		fmt.Fprintf(&info, "100644 %s 0\t%s\n", hex.EncodeToString(id[:]), p)
		if i%(benchEntries/10) == benchEntries/20 {
			wanted = append(wanted, p)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"update-index", "--index-info"}, {"update-index", "--index-version", v}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(info.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return file, wanted
}

// oldIndex is the index as gitops read it before (go-git's decoder and
// a map of every entry), for comparison.
type oldIndex struct {
	entries map[string]Entry
	paths   []string
}

func readIndexGoGit(path string) (*oldIndex, error) {
	idx := &oldIndex{entries: map[string]Entry{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return idx, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var raw goindex.Index
	if err := goindex.NewDecoder(f).Decode(&raw); err != nil {
		return nil, err
	}
	for _, e := range raw.Entries {
		old, seen := idx.entries[e.Name]
		if !seen {
			idx.paths = append(idx.paths, e.Name)
		}
		ie := Entry{Mode: modeOf(uint32(e.Mode)), ID: e.Hash, IntentToAdd: e.IntentToAdd}
		if e.Mode == filemode.Executable {
			ie.Mode = patch.ModeExec
		}
		ie.Unmerged = e.Stage != 0 || seen && old.Unmerged
		idx.entries[e.Name] = ie
	}
	return idx, nil
}

// BenchmarkReadIndex opens an index of benchEntries files and looks 10
// paths up (what a reply touching 10 files costs), or lists every path
// (what a reply naming a file by a suffix costs), with go-git's decoder
// ("go-git") and this package's ("gitops", the name it had when it
// was part of package gitops, so that results compare with earlier
// ones).
func BenchmarkReadIndex(b *testing.B) {
	for _, v := range []string{"2", "4"} {
		file, wanted := benchIndex(b, v)
		b.Run("v"+v+"/lookup10/go-git", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idx, err := readIndexGoGit(file)
				if err != nil {
					b.Fatal(err)
				}
				for _, p := range wanted {
					if _, ok := idx.entries[p]; !ok {
						b.Fatalf("%s not found", p)
					}
				}
			}
		})
		b.Run("v"+v+"/lookup10/gitops", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idx, err := Open(file, "", nil)
				if err != nil {
					b.Fatal(err)
				}
				for _, p := range wanted {
					if _, ok := idx.Lookup(p); !ok {
						b.Fatalf("%s not found", p)
					}
				}
				idx.Close()
			}
		})
		b.Run("v"+v+"/paths/go-git", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idx, err := readIndexGoGit(file)
				if err != nil || len(idx.paths) != benchEntries {
					b.Fatal(err, len(idx.paths))
				}
			}
		})
		b.Run("v"+v+"/paths/gitops", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				idx, err := Open(file, "", nil)
				if err != nil {
					b.Fatal(err)
				}
				if n := len(idx.Paths()); n != benchEntries {
					b.Fatal(n, idx.Err())
				}
				idx.Close()
			}
		})
		b.Run("v"+v+"/lookup10-only/gitops", func(b *testing.B) {
			idx, err := Open(file, "", nil)
			if err != nil {
				b.Fatal(err)
			}
			defer idx.Close()
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range wanted {
					if _, ok := idx.Lookup(p); !ok {
						b.Fatalf("%s not found", p)
					}
				}
			}
		})
	}
}
