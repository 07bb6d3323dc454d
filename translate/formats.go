package translate

import (
	"fmt"
	"regexp"
	"strings"
)

// Format describes one supported format.
type Format struct {
	Name string
	// Recognised says how auto-detection knows the format.
	Recognised string
	read       func(string) (*Reply, error)
}

// Formats lists the formats the readers understand, in the order
// auto-detection tries them.
func Formats() []Format {
	return []Format{
		{Name: "diff", Recognised: "<<<<<<< SEARCH / ======= / >>>>>>> REPLACE blocks, file name on the line before the fence", read: ParseSearchReplace},
		{Name: "diff-fenced", Recognised: "the same blocks, file name on the first line inside the fence", read: ParseSearchReplace},
	}
}

// FormatNames lists the names --format accepts besides "auto".
func FormatNames() []string {
	var names []string
	for _, f := range Formats() {
		names = append(names, f.Name)
	}
	return names
}

var detectSearchRe = regexp.MustCompile(`(?m)^\s*<{5,9} SEARCH>?\s*$`)

// Detect names the format of a reply by its markers; "" when no
// format's markers are present.
func Detect(text string) string {
	if detectSearchRe.MatchString(text) {
		return "diff"
	}
	return ""
}

// Parse reads a reply in the named format ("auto" or "" detects it).
// It returns ErrNoEdits (wrapped, with the reason) when the reply holds
// no edit, and the reader's *ParseError for a malformed one, together
// with what was parsed before it.
func Parse(text, format string) (*Reply, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("%w: the reply is empty", ErrNoEdits)
	}
	name := format
	if name == "" || name == "auto" {
		if name = Detect(text); name == "" {
			return nil, fmt.Errorf("%w: no edit block of any supported format (%s)", ErrNoEdits, strings.Join(FormatNames(), ", "))
		}
	}
	var f *Format
	for _, x := range Formats() {
		if x.Name == name {
			f = &x
			break
		}
	}
	if f == nil {
		return nil, fmt.Errorf("%w %q (supported: auto, %s)", ErrUnknownFormat, name, strings.Join(FormatNames(), ", "))
	}
	r, err := f.read(text)
	if err != nil {
		return r, err
	}
	if format != "" && format != "auto" {
		r.Format = format
	}
	if len(r.Ops) == 0 {
		return r, fmt.Errorf("%w: the reply has no %s edit block", ErrNoEdits, name)
	}
	return r, nil
}
