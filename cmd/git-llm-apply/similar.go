package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v3"
)

// unknownCommandError is a command name that names no command, said as
// git says it of its own (help.c, help_unknown_cmd): "git llm-apply:
// 'aply' is not a git llm-apply command. See 'git llm-apply --help'.",
// then the most similar commands when some are similar enough (SPEC
// section 2).
type unknownCommandError struct {
	path    string // "git llm-apply", "git llm-apply hook"
	name    string
	similar []string
}

func unknownCommand(at []*cli.Command, name string) error {
	var names []string
	for _, c := range visibleCommands(at[0]) {
		names = append(names, c.Name)
	}
	return &unknownCommandError{path: fullName(at), name: name, similar: similarCommands(name, names)}
}

func (e *unknownCommandError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: '%s' is not a %s command. See '%s --help'.", e.path, e.name, e.path, e.path)
	switch len(e.similar) {
	case 0:
	case 1:
		b.WriteString("\n\nThe most similar command is")
	default:
		b.WriteString("\n\nThe most similar commands are")
	}
	for _, s := range e.similar {
		b.WriteString("\n\t" + s)
	}
	return b.String()
}

// similarityFloor is git's "empirically derived magic number": a
// command at a distance of 7 or more is not suggested.
const similarityFloor = 7

// similarCommands picks, as help_unknown_cmd does, the commands most
// like name: a command name starts with scores 0 (git gives its
// common commands that bonus, and every command of ours is one), any
// other scores its Damerau-Levenshtein distance from name with git's
// weights (swap 0, substitution 2, insertion 1, deletion 3) plus one.
// Every command of the best other score is suggested when that score
// is below the floor, after the commands name starts. git suggests the
// latter only with the former, which among its hundreds of commands
// are always there; among our two hook commands, "instal" would get
// no suggestion.
func similarCommands(name string, commands []string) []string {
	type scored struct {
		name  string
		score int
	}
	var all []scored
	for _, c := range commands {
		s := 0
		if !strings.HasPrefix(c, name) {
			s = levenshtein(name, c, 0, 2, 1, 3) + 1
		}
		all = append(all, scored{c, s})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].score != all[j].score {
			return all[i].score < all[j].score
		}
		return all[i].name < all[j].name
	})
	n := 0
	for n < len(all) && all[n].score == 0 {
		n++
	}
	if n == len(all) {
		return nil // a prefix of everything is too ambiguous
	}
	prefixes := n
	best := all[n].score
	for n++; n < len(all) && all[n].score == best; n++ {
	}
	if best >= similarityFloor {
		n = prefixes
	}
	out := make([]string, n)
	for i := range out {
		out[i] = all[i].name
	}
	return out
}

// levenshtein is git's levenshtein.c: the cost of turning a into b
// with w per swap of two adjacent bytes, s per substitution, i per
// insertion and d per deletion.
func levenshtein(a, b string, w, s, i, d int) int {
	row0 := make([]int, len(b)+1)
	row1 := make([]int, len(b)+1)
	row2 := make([]int, len(b)+1)
	for j := range row1 {
		row1[j] = j * i
	}
	for x := 0; x < len(a); x++ {
		row2[0] = (x + 1) * d
		for y := 0; y < len(b); y++ {
			cost := 0
			if a[x] != b[y] {
				cost = s
			}
			row2[y+1] = row1[y] + cost
			if x > 0 && y > 0 && a[x-1] == b[y] && a[x] == b[y-1] && row2[y+1] > row0[y-1]+w {
				row2[y+1] = row0[y-1] + w
			}
			row2[y+1] = min(row2[y+1], row1[y+1]+d, row2[y]+i)
		}
		row0, row1, row2 = row1, row2, row0
	}
	return row1[len(b)]
}
