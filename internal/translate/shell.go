package translate

import "strings"

// readShell reads the shell block whose fence f opens at line i (0-based)
// of lines, up to and including the first line that ends says closes
// it (given trimmed), marking every line of it kShell. It returns the
// block, whose Text is the lines between the fences, and the line after
// it. Readers differ in what closes a fence, to agree with the parser
// each format comes from, so they pass fence.closes or fence.ticksClose.
func readShell(lines []string, kind []lineKind, i int, f fence, ends func(trimmed string) bool) (Shell, int) {
	sh, next := shellBlock(len(lines), func(k int) string { return lines[k] }, i, f, ends)
	for k := i; k < next; k++ {
		kind[k] = kShell
	}
	return sh, next
}

// shellBlock is readShell for a reader that keeps no slice of lines
// (udiffx's, see udxLines): the reply has n lines and line(k) is line
// k. It marks no line.
func shellBlock(n int, line func(k int) string, i int, f fence, ends func(trimmed string) bool) (Shell, int) {
	var b strings.Builder
	j := i + 1
	for ; j < n; j++ {
		l := line(j)
		if ends(strings.TrimSpace(l)) {
			j++
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return Shell{Line: i + 1, Lang: f.info, Text: b.String()}, j
}

// ticksClose reports whether the trimmed line t starts with as many
// backticks as f opened with, whatever follows them: aider's parser
// ends a shell block there, even at a fence line with an info string.
func (f fence) ticksClose(t string) bool { return countPrefix(t, '`') >= f.ticks }

// shellBlocks finds the fenced shell blocks of a reply and the lines
// outside every fence (its prose), for a reply no format reader took.
func shellBlocks(text string) ([]Shell, []string) {
	var shell []Shell
	var prose []string
	lines := splitLines(text)
	for i := 0; i < len(lines); i++ {
		f, ok := openFence(lines[i])
		if !ok {
			prose = append(prose, lines[i])
			continue
		}
		j := i + 1
		for j < len(lines) && !f.closes(lines[j]) {
			j++
		}
		if f.isShell() {
			shell = append(shell, Shell{Line: i + 1, Lang: f.info, Text: joinLines(lines[i+1 : min(j, len(lines))])})
		}
		i = j
	}
	return shell, prose
}
