package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// repo is a generated repository: its directory and what the replies
// need to know of its files.
type repo struct {
	dir       string
	indexSize int64
	paths     []string // the small files, in generation order
}

// smallFile is the content of the i-th small file: a few lines that
// name their file, so that every line of the repository is unique.
func smallFile(i int) string {
	return fmt.Sprintf("file %d\nalpha %d\nbeta %d\ngamma %d\ndelta %d\n", i, i, i, i, i)
}

func smallPath(i int) string {
	return fmt.Sprintf("d%02d/e%02d/f%d.txt", (i/1000)%100, (i/10)%100, i%10)
}

// sourceFile is a source file of n lines, each one unique.
func sourceFile(n int) string {
	var b strings.Builder
	b.WriteString("package big\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "\tv%06d := compute(%d) // step %d\n", i, i*7%1000, i)
	}
	return b.String()
}

// makeRepo writes a repository whose first commit holds files (path ->
// content) through git fast-import (much faster than writing the
// files and adding them) and fills the index from it, as a checkout
// would; the working tree stays empty, which neither git apply
// --cached nor an index base reads.
func (b *bench) makeRepo(name string, files func(emit func(path, content string))) *repo {
	dir := filepath.Join(b.dir, name)
	check(os.MkdirAll(dir, 0o755))
	run(b.env, dir, "git", "init", "-q", "-b", "main")
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env = dir, b.env
	in, err := cmd.StdinPipe()
	check(err)
	check(cmd.Start())
	w := bufio.NewWriterSize(in, 1<<20)
	var paths []string
	files(func(p, content string) {
		fmt.Fprintf(w, "blob\nmark :%d\ndata %d\n%s\n", len(paths)+1, len(content), content)
		paths = append(paths, p)
	})
	msg := "initial\n"
	fmt.Fprintf(w, "commit refs/heads/main\nauthor Bench <bench@example.com> 1700000000 +0000\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata %d\n%s", len(msg), msg)
	for i, p := range paths {
		fmt.Fprintf(w, "M 100644 :%d %s\n", i+1, p)
	}
	check(w.Flush())
	check(in.Close())
	check(cmd.Wait())
	run(b.env, dir, "git", "read-tree", "HEAD")
	fi, err := os.Stat(filepath.Join(dir, ".git", "index"))
	check(err)
	return &repo{dir: dir, indexSize: fi.Size(), paths: paths}
}

// bigRepo is the large repository: *files small files in nested
// folders and one source file of *lines lines.
func (b *bench) bigRepo() *repo {
	fmt.Fprintf(os.Stderr, "bench: generating a repository of %d files and a %d-line source file\n", *files, *lines)
	return b.makeRepo("big", func(emit func(string, string)) {
		for i := 0; i < *files; i++ {
			emit(smallPath(i), smallFile(i))
		}
		emit("src/big.go", sourceFile(*lines))
	})
}

// smallRepo is a ten-file repository, for start-up time.
func (b *bench) smallRepo() *repo {
	return b.makeRepo("small", func(emit func(string, string)) {
		for i := 0; i < 10; i++ {
			emit(smallPath(i), smallFile(i))
		}
	})
}

// sourceRepo holds one source file of n lines.
func (b *bench) sourceRepo(n int) *repo {
	return b.makeRepo(fmt.Sprintf("source-%d", n), func(emit func(string, string)) {
		emit("src/big.go", sourceFile(n))
	})
}

// writeReply writes a reply into the bench directory.
func (b *bench) writeReply(name, text string) string {
	p := filepath.Join(b.dir, name)
	check(os.WriteFile(p, []byte(text), 0o644))
	return p
}

// searchReplace is one SEARCH/REPLACE block of the diff format.
func searchReplace(path string, search, replace []string) string {
	return path + "\n```\n<<<<<<< SEARCH\n" + joinLines(search) + "=======\n" + joinLines(replace) + ">>>>>>> REPLACE\n```\n\n"
}

func joinLines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}
