package main

import (
	"errors"
	"regexp"

	"github.com/urfave/cli/v3"
)

// flagError is a usage error urfave/cli found parsing the flags. What
// it says stays plain text even with --json: the flags after the bad
// one were not read, so whether --json was asked is not known.
type flagError struct{ err error }

func (e *flagError) Error() string { return gitFlagNames(e.err.Error()) }

// flagInMessage is a defined flag named in a message of Go's flag
// parsing, which writes every flag with one dash ("invalid value ...
// for flag -max-edits", "flag needs an argument: -format"). A flag
// that is not defined ("flag provided but not defined: -qv") is left
// as it is: -qv and --qv read the same there.
var flagInMessage = regexp.MustCompile(`(for flag |argument: )--?([A-Za-z0-9][A-Za-z0-9-]+)`)

// gitFlagNames writes the defined flags a flag-parsing message names
// as -h shows them: --name for a long one.
func gitFlagNames(msg string) string {
	return flagInMessage.ReplaceAllString(msg, "${1}--${2}")
}
func (e *flagError) Unwrap() error { return e.err }

// reportStop writes, for a command run with --json that err stopped
// before its report (no repository, an unreadable reply, a bad flag
// value), the JSON document a program reading standard output expects:
// no reply, "ok": false, and the error. reported says whether the
// command wrote its own report, which then says all there is.
func reportStop(app *cli.Command, s streams, err error, reported bool) {
	var fe *flagError
	if err == nil || reported || errors.As(err, &fe) {
		return
	}
	for _, c := range app.Commands {
		if c.Bool("json") {
			report(s, commonOptions{JSON: true}, nil, outputs{fatal: err})
			return
		}
	}
}
