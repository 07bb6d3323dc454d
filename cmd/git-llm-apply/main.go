// Command git-llm-apply applies the edits a language model writes, in
// any supported format, to a git repository: one commit per reply on a
// branch, without touching the user's checkout. See README.md.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
