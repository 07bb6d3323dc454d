package engine

import "strings"

// shift is how much deeper (in columns) the file indents the matched
// lines than the reply wrote them, and how the file writes indentation.
type shift struct {
	delta   int
	tab     int  // columns of a tab
	useTabs bool // the file indents with tabs
	active  bool // lines the reply adds must be re-indented
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

func leading(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// columns is the width of an indentation string with tabs of width tab.
func columns(ws string, tab int) int {
	n := 0
	for _, c := range ws {
		if c == '\t' {
			n += tab - n%tab
		} else {
			n++
		}
	}
	return n
}

// measureShift finds one constant column difference between pairs of
// file and reply lines, trying the common tab widths when either side
// uses tabs. fileTabs says the file as a whole indents with tabs.
func measureShift(file, reply []string, fileTabs bool) (shift, bool) {
	useTabs := fileTabs
	tabbed := false
	for i := range file {
		lf, lr := leading(file[i]), leading(reply[i])
		if strings.Contains(lf, "\t") {
			useTabs = true
			tabbed = true
		}
		if strings.Contains(lr, "\t") {
			tabbed = true
		}
	}
	if len(file) == 0 {
		return shift{tab: 4, useTabs: useTabs}, true
	}
	widths := []int{4}
	if tabbed {
		widths = []int{4, 8, 2}
	}
	for _, w := range widths {
		d := columns(leading(file[0]), w) - columns(leading(reply[0]), w)
		ok := true
		same := true
		for i := range file {
			lf, lr := leading(file[i]), leading(reply[i])
			if columns(lf, w)-columns(lr, w) != d {
				ok = false
				break
			}
			if lf != lr {
				same = false
			}
		}
		if ok {
			return shift{delta: d, tab: w, useTabs: useTabs, active: !same}, true
		}
	}
	return shift{}, false
}

// apply re-indents a line the reply adds so that it stands where the
// reply meant it relative to the matched lines, written the file's way.
func (s shift) apply(line string) string {
	if !s.active || isBlank(line) {
		return line
	}
	ws := leading(line)
	n := columns(ws, s.tab) + s.delta
	if n < 0 {
		n = 0
	}
	var ind string
	if s.useTabs {
		ind = strings.Repeat("\t", n/s.tab) + strings.Repeat(" ", n%s.tab)
	} else {
		ind = strings.Repeat(" ", n)
	}
	return ind + line[len(ws):]
}
