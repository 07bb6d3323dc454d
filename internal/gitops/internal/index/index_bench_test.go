package index

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
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
	env := append(scratch.Env(dir), "GIT_INDEX_FILE="+file)
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

// BenchmarkReadIndex opens an index of benchEntries files and looks 10
// paths up (what a reply touching 10 files costs), or lists every path
// (what a reply naming a file by a suffix costs). "gitops" is the
// name this reader had when it was part of package gitops, kept so
// that results compare with earlier ones (go-git's decoder, measured
// against it then, took 120-170 ms for these entries).
func BenchmarkReadIndex(b *testing.B) {
	for _, v := range []string{"2", "4"} {
		file, wanted := benchIndex(b, v)
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
