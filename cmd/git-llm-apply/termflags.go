package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"
)

// terminalFlags are the flags of colour and progress, git's:
// --color[=WHEN], --no-color, --progress, --no-progress.
func terminalFlags() []cli.Flag {
	color, progress := new(string), new(string)
	return []cli.Flag{
		switchFlag{&cli.GenericFlag{Name: "color", Value: &whenValue{dst: color, bare: "always", orWhen: true},
			Usage: "colour the report and translate's diff; --color=WHEN: always (--color alone), never, or auto (only on a terminal; the default unless NO_COLOR, color.llm-apply or color.ui say otherwise)"}},
		switchFlag{&cli.GenericFlag{Name: "no-color", Value: &whenValue{dst: color, bare: "never"},
			Usage: "do not colour (--color=never)"}},
		switchFlag{&cli.GenericFlag{Name: "progress", Value: &whenValue{dst: progress, bare: "always"},
			Usage: "show progress on standard error even when it is not a terminal, or with -q or --json"}},
		switchFlag{&cli.GenericFlag{Name: "no-progress", Value: &whenValue{dst: progress, bare: "never"},
			Usage: "do not show progress (shown on a terminal when a run is long)"}},
	}
}

// switchFlag is a flag used alone, whose value, if any, follows an "="
// (--color=auto): help and completion must not show it taking the
// next argument.
type switchFlag struct{ *cli.GenericFlag }

func (switchFlag) TakesValue() bool { return false }

// String is the flag's line of help, from this type's TakesValue (the
// embedded flag's String would ask its own).
func (f switchFlag) String() string { return cli.FlagStringer(f) }

// whenValue is the value of a flag pair sharing one setting, the last
// given winning as in git: --color[=WHEN] and --no-color, --progress
// and --no-progress. It is a switch to the flag parser, so that a bare
// flag never takes the next argument, and --color=WHEN passes its
// value.
type whenValue struct {
	dst    *string
	bare   string // what the flag alone sets
	orWhen bool   // also takes =always, =never, =auto
}

// errTakesNoValue is the complaint of a switch given a value; the
// option's name goes before it (git's "option `no-color' takes no
// value").
var errTakesNoValue = errors.New("takes no value")

func (v *whenValue) IsBoolFlag() bool { return true }
func (v *whenValue) Get() any         { return *v.dst }

func (v *whenValue) optionalArg() string {
	if v.orWhen {
		return "when"
	}
	return ""
}
func (v *whenValue) String() string { return "" }

func (v *whenValue) Set(s string) error {
	if s == "true" { // the flag alone
		*v.dst = v.bare
		return nil
	}
	switch s {
	case "always", "never", "auto":
		if v.orWhen {
			*v.dst = s
			return nil
		}
		return errTakesNoValue
	}
	if v.orWhen {
		return fmt.Errorf(`expects "always", "auto", or "never", not %q`, s)
	}
	return errTakesNoValue
}
