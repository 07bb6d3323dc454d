package main

import (
	"errors"

	"github.com/urfave/cli/v3"
)

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
			printReport(s, commonOptions{JSON: true}, nil, outputs{fatal: err})
			return
		}
	}
}
