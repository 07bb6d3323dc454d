package translate

import (
	"errors"
	"fmt"
	"strings"
)

func isNoEdits(err error) bool { return errors.Is(err, ErrNoEdits) }

// ShellOps reads the file commands of shell blocks: "git rm [-r] P...",
// "git mv A B", "rm [-r] P..." and "mv A B" become Delete (Recursive
// with -r) and Rename operations, in order, with the reply line of the
// command. Commands are split at ";", "&&" and "||"; a "$ " prompt and
// comments are dropped; words are unquoted as a POSIX shell does for
// plain words and quotes. Anything else is left alone: it stays a
// suggestion. A command the rules cannot take safely (a glob, a
// variable, a mv with several sources, an unknown option) is a
// warning, never an operation.
func ShellOps(blocks []Shell) ([]Operation, []Warning) {
	var ops []Operation
	var warns []Warning
	for _, b := range blocks {
		for k, line := range strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n") {
			n := b.Line + 1 + k
			line = strings.TrimSpace(line)
			line = strings.TrimSpace(strings.TrimPrefix(line, "$ "))
			for _, cmd := range splitCommands(line) {
				words, ok := shellWords(cmd)
				if !ok {
					if looksLikeFileCommand(cmd) {
						warns = append(warns, Warning{n, fmt.Sprintf("the command %q uses shell features (globs, variables, substitutions) and is not turned into an operation", cmd)})
					}
					continue
				}
				o, warn := fileCommand(words, n)
				if warn != "" {
					warns = append(warns, Warning{n, warn})
				}
				ops = append(ops, o...)
			}
		}
	}
	return ops, warns
}

// splitCommands splits a command line at ";", "&&" and "||" outside
// quotes, and drops a "#" comment.
func splitCommands(line string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			out = append(out, line[start:i])
			return trimAll(out)
		case c == ';', (c == '&' || c == '|') && i+1 < len(line) && line[i+1] == c:
			out = append(out, line[start:i])
			if c != ';' {
				i++
			}
			start = i + 1
		}
	}
	return trimAll(append(out, line[start:]))
}

func trimAll(cmds []string) []string {
	var out []string
	for _, c := range cmds {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// shellWords splits a simple command into words, removing quotes and
// backslashes. ok is false for what a shell would expand (globs,
// variables, substitutions, redirections, pipes, an unclosed quote):
// such a command names files we cannot know.
func shellWords(cmd string) ([]string, bool) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			w.WriteString(cmd[i+1 : i+1+j])
			i += 1 + j
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(cmd) && cmd[j] != '"'; j++ {
				switch cmd[j] {
				case '\\':
					j++
					if j < len(cmd) {
						w.WriteByte(cmd[j])
					}
				case '$', '`':
					return nil, false
				default:
					w.WriteByte(cmd[j])
				}
			}
			if j >= len(cmd) {
				return nil, false
			}
			i = j
			inWord = true
		case c == '\\':
			if i+1 < len(cmd) {
				i++
				w.WriteByte(cmd[i])
			}
			inWord = true
		case strings.IndexByte("*?[]{}$`<>|&()~", c) >= 0:
			return nil, false
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, true
}

// looksLikeFileCommand reports whether a command line starts with one
// of the commands ShellOps reads, for the warning.
func looksLikeFileCommand(cmd string) bool {
	f := strings.Fields(cmd)
	return len(f) > 0 && (f[0] == "rm" || f[0] == "mv" || (f[0] == "git" && len(f) > 1 && (f[1] == "rm" || f[1] == "mv")))
}

// fileCommand turns one command's words into operations; warn says why
// a file command was not taken.
func fileCommand(words []string, line int) ([]Operation, string) {
	if len(words) == 0 {
		return nil, ""
	}
	name := words[0]
	args := words[1:]
	if name == "git" {
		if len(args) == 0 || (args[0] != "rm" && args[0] != "mv") {
			return nil, ""
		}
		name, args = "git "+args[0], args[1:]
	} else if name != "rm" && name != "mv" {
		return nil, ""
	}
	recursive := false
	var paths []string
	options := true
	for _, a := range args {
		switch {
		case options && a == "--":
			options = false
		case options && strings.HasPrefix(a, "--"):
			switch a {
			case "--recursive":
				recursive = true
			case "--cached", "--force", "--quiet", "--verbose":
			default:
				return nil, fmt.Sprintf("%s: the option %s is not understood; the command is not turned into an operation", name, a)
			}
		case options && strings.HasPrefix(a, "-") && len(a) > 1:
			for _, f := range a[1:] {
				switch f {
				case 'r', 'R':
					recursive = true
				case 'f', 'v', 'q':
				default:
					return nil, fmt.Sprintf("%s: the option %s is not understood; the command is not turned into an operation", name, a)
				}
			}
		case a == "":
			return nil, fmt.Sprintf("%s names an empty path; the command is not turned into an operation", name)
		default:
			paths = append(paths, a)
		}
	}
	if strings.HasSuffix(name, "mv") {
		if len(paths) != 2 {
			return nil, fmt.Sprintf("%s with %d paths: only \"mv SOURCE TARGET\" is turned into a rename", name, len(paths))
		}
		to := paths[1]
		if strings.HasSuffix(to, "/") {
			to += pathBase(paths[0])
		}
		return []Operation{{Kind: Rename, Path: paths[0], FileOp: FileOp{NewPath: to}, Line: line, Comment: strings.Join(words, " ")}}, ""
	}
	if len(paths) == 0 {
		return nil, fmt.Sprintf("%s names no path", name)
	}
	var ops []Operation
	for _, p := range paths {
		ops = append(ops, Operation{Kind: Delete, Path: p, FileOp: FileOp{Recursive: recursive}, Line: line, Comment: strings.Join(words, " ")})
	}
	return ops, ""
}

func pathBase(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
