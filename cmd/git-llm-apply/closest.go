package main

import (
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
)

// Markers of the closest lines a failure report quotes: a line that
// reads as one of the edit's, and one that does not.
const (
	sameMark   = "    | "
	differMark = "    ! "
	// a line of the edit that none of the closest lines reads as,
	// shown where it stands among them
	missingMark = "    ? "
)

// printClosest quotes the lines most like a failed edit's, marking the
// ones that differ from the edit's lines and saying once what the marks
// mean (the differing ones in red, as git shows removed lines), and
// says, when looser, whether a looser --fuzz would take them.
func printClosest(w *painter, e engine.Outcome, path string, c *engine.Closest, looser bool) {
	what := "the lines to find"
	if wd, ok := words[e.Op.Format]; ok {
		what = wd[0]
	}
	lines := strings.Split(c.Text, "\n")
	differ := map[int]bool{}
	for _, n := range c.Differ {
		differ[n] = true
	}
	head := fmt.Sprintf("  The closest lines are %d-%d of %s (similarity %.2f)", c.Start, c.End, displayPath(path), c.Similarity)
	if c.Start == c.End {
		head = fmt.Sprintf("  The closest line is line %d of %s (similarity %.2f)", c.Start, displayPath(path), c.Similarity)
	}
	switch n := len(c.Differ); {
	case n == 0 && len(c.Missing) > 0:
		// Every line shown reads as one of the edit's, but not every
		// line of the edit stands among them (a comment line the
		// file lacks): show those too, where each stands, or the
		// lines read as the whole edit (SPEC section 8).
		lineOf, it, stand := "its line", "it", "stands"
		if len(c.Missing) > 1 {
			lineOf, it, stand = "its lines", "they", "stand"
		}
		fmt.Fprintf(w, "%s. Each line reads as a line of %s (marked %q), but %s %s (marked %q, where %s would stand) %s among none of them:\n",
			head, what, strings.TrimSpace(sameMark), lineOf, missingNumbers(c.Missing), strings.TrimSpace(missingMark), it, stand)
	case n == 0:
		// Each line reads as one of the edit's, and still the edit
		// failed (its lines are indented otherwise among themselves,
		// say). Say so, or the marks read as a match.
		fmt.Fprintf(w, "%s. Each line reads as a line of %s (marked %q), but together they do not match it:\n", head, what, strings.TrimSpace(sameMark))
	case n == 1 && len(lines) == 1:
		fmt.Fprintf(w, "%s. It differs from %s (marked %q):\n", head, what, strings.TrimSpace(differMark))
	case n == len(lines):
		fmt.Fprintf(w, "%s. Every line differs from %s (marked %q):\n", head, what, strings.TrimSpace(differMark))
	case n == 1:
		fmt.Fprintf(w, "%s. The line marked %q differs from %s; the lines marked %q match it:\n", head, strings.TrimSpace(differMark), what, strings.TrimSpace(sameMark))
	default:
		fmt.Fprintf(w, "%s. The %d lines marked %q differ from %s; the lines marked %q match it:\n", head, n, strings.TrimSpace(differMark), what, strings.TrimSpace(sameMark))
	}
	missing := c.Missing
	if len(c.Differ) > 0 {
		missing = nil // the lines marked "!" stand for them
	}
	showMissing := func(after int) {
		for len(missing) > 0 && missing[0].After <= after {
			fmt.Fprintf(w, "%s%s\n", missingMark, missing[0].Text)
			missing = missing[1:]
		}
	}
	showMissing(c.Start - 1)
	for i, l := range lines {
		if differ[c.Start+i] {
			w.paint(slotDiffers, "%s%s", differMark, l)
			fmt.Fprintln(w)
		} else {
			fmt.Fprintf(w, "%s%s\n", sameMark, l)
		}
		showMissing(c.Start + i)
	}
	if looser && c.Rung != 0 {
		fuzz := "--fuzz " + c.Fuzz.String()
		if c.Fuzz == engine.FuzzFormat {
			fuzz += " (the default)"
		}
		fmt.Fprintf(w, "  With %s this edit matches%s (%s).\n", fuzz, lineRange(engine.Outcome{Start: c.Start, End: c.End}), looserWhy(c))
	}
}

// looserWhy says how lines a looser rung takes differ from the edit's:
// what that rung, and the rungs below it, ignore.
func looserWhy(c *engine.Closest) string {
	switch c.Rung {
	case engine.RungTrailing:
		return "they read the same once trailing white space is ignored"
	case engine.RungIndent:
		return "they read the same once indentation and trailing white space are ignored"
	case engine.RungWhitespace:
		return "they read the same once white space and blank lines are ignored"
	case engine.RungComments:
		return "they read the same once comments, white space and blank lines are ignored"
	case engine.RungTypography:
		return "they read the same once typographic quotes, dashes and spaces, comments, white space and blank lines are ignored"
	}
	return fmt.Sprintf("a near match, similarity %.2f, clearly the best place", c.Similarity)
}

// missingNumbers names the edit's lines that stand among none of the
// closest lines by their numbers: "2", "2 and 4", "2, 3 and 5".
func missingNumbers(ms []engine.MissingLine) string {
	var b strings.Builder
	for i, m := range ms {
		switch {
		case i == 0:
		case i == len(ms)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprint(&b, m.Line)
	}
	return b.String()
}
