package mcpserver

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// plural counts n things: plural(1, "file", "files") is "1 file" (as
// the command's grammar.go).
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// shellArg is s as an argument of a suggested command that can be
// pasted as it is, as the command's advice.go quotes one: a leading
// "-", which would be read as an option, made "./-".
func shellArg(s string) string {
	if strings.HasPrefix(s, "-") {
		s = "./" + s
	}
	return shquote.Word(s)
}

// under returns path p as a process started in dir would see it (the
// command's startdir.go): p itself when it is absolute (or dir is ""),
// else p under dir, joined, not cleaned.
func under(dir, p string) string {
	if dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return dir + string(filepath.Separator) + p
}
