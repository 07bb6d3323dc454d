package llmapply

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// ErrInvalidOption: an option names no format or fuzz level, or does
// not apply (a base for a branch that exists).
var ErrInvalidOption = errors.New("invalid option")

// Options steer how a reply is read and matched.
type Options struct {
	// Format is "" or "auto" to recognise the reply's format, else one
	// of the names Formats lists.
	Format string
	// Fuzz is how far matching may loosen: "exact", "format" (each
	// format's own tolerance; "" means it) or "loose".
	Fuzz string
	// Partial keeps the edits that resolved when others failed;
	// otherwise a failed edit fails the whole reply.
	Partial bool
	// ShellOps turns the git rm, git mv, rm and mv lines of the reply's
	// shell blocks into deletions and renames. Nothing is ever run.
	ShellOps bool
	// Limits refuses replies and files over them; nil gives
	// DefaultLimits.
	Limits *Limits
}

// Limits bound what one reply may ask for. Zero lifts a limit.
type Limits struct {
	ReplySize  int64 // bytes of a reply
	FileSize   int64 // bytes of a file an edit touches
	LineLength int   // bytes of a line of the reply or of a file an edit touches
	Edits      int   // operations in a reply
}

// DefaultLimits are the command line's limits: room for any reply and
// source file a person would write.
func DefaultLimits() Limits {
	d := engine.DefaultLimits
	return Limits{ReplySize: d.ReplySize, FileSize: d.FileSize, LineLength: d.LineLength, Edits: d.Edits}
}

// engineOptions checks o and gives the engine's options.
func (o Options) engineOptions() (engine.RunOptions, error) {
	ro := engine.RunOptions{Format: o.Format, Partial: o.Partial, ShellOps: o.ShellOps}
	if ro.Format == "" {
		ro.Format = "auto"
	}
	if err := checkFormat(ro.Format); err != nil {
		return ro, err
	}
	fuzz, err := engine.ParseFuzz(o.Fuzz)
	if err != nil {
		return ro, fmt.Errorf("%w: fuzz %q (want exact, format or loose)", ErrInvalidOption, o.Fuzz)
	}
	ro.Fuzz = fuzz
	l := DefaultLimits()
	if o.Limits != nil {
		l = *o.Limits
	}
	if l.ReplySize < 0 || l.FileSize < 0 || l.LineLength < 0 || l.Edits < 0 {
		return ro, fmt.Errorf("%w: a limit is negative", ErrInvalidOption)
	}
	ro.Limits = engine.Limits{ReplySize: l.ReplySize, FileSize: l.FileSize, LineLength: l.LineLength, Edits: l.Edits}
	return ro, nil
}

func checkFormat(name string) error {
	if name == "auto" {
		return nil
	}
	for _, n := range translate.FormatNames() {
		if n == name {
			return nil
		}
	}
	return fmt.Errorf("%w: unknown format %q (want auto, %s)", ErrInvalidOption, name, strings.Join(translate.FormatNames(), ", "))
}

// Format is one reply format the reader knows.
type Format struct {
	Name string `json:"name" jsonschema:"the name to pass as format"`
	// Markers says how a reply in this format is recognised.
	Markers string `json:"markers" jsonschema:"how a reply in this format is recognised"`
	// Spec names the specification the format follows.
	Spec string `json:"spec" jsonschema:"the specification the format follows"`
}

// Formats lists the reply formats, in the order auto-detection prefers
// them.
func Formats() []Format {
	var out []Format
	for _, f := range translate.Formats() {
		out = append(out, Format{Name: f.Name, Markers: f.Markers, Spec: f.Seed})
	}
	return out
}

// Prompt is the instructions to give a model so that it writes replies
// in the named format, with a worked example.
func Prompt(format string) (string, error) {
	if err := checkFormat(format); err != nil || format == "auto" {
		return "", fmt.Errorf("%w: unknown format %q (want one of %s)", ErrInvalidOption, format, strings.Join(translate.FormatNames(), ", "))
	}
	return translate.Prompt(format)
}
