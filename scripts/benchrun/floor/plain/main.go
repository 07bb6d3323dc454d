// Command plain prints one line: the start-up of a Go program that does
// nothing else, beside which scripts/bench puts git-llm-apply's (case 5).
package main

import "os"

func main() { os.Stdout.WriteString("plain\n") }
