// Command deps prints one line, linking the libraries git-llm-apply
// links (go list -deps ./cmd/git-llm-apply): their packages' start-up
// is paid by every run of git-llm-apply before its own code runs, so
// scripts/bench (case 5) shows it as the floor of its start-up.
package main

import (
	"os"

	_ "github.com/bluekeyes/go-gitdiff/gitdiff"
	_ "github.com/klauspost/compress/flate"
	_ "github.com/pjbgf/sha1cd"
	_ "github.com/urfave/cli/v3"
	_ "go.yaml.in/yaml/v4"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/term"
	_ "znkr.io/diff"
	_ "znkr.io/diff/textdiff"
)

func main() { os.Stdout.WriteString("deps\n") }
