package main

import (
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
)

// limitFlags are the flags of engine.Limits, shared by apply, translate
// and check. Sizes take git's suffixes (k, m, g: powers of 1024); 0
// lifts a limit.
func limitFlags() []cli.Flag {
	d := engine.DefaultLimits
	return []cli.Flag{
		&cli.StringFlag{Name: "max-reply-size", Value: sizeFlag(d.ReplySize), Usage: "refuse a reply larger than `SIZE` (k, m, g suffixes; 0: no limit)"},
		&cli.StringFlag{Name: "max-file-size", Value: sizeFlag(d.FileSize), Usage: "refuse to touch a file larger than `SIZE`"},
		&cli.StringFlag{Name: "max-line-length", Value: sizeFlag(int64(d.LineLength)), Usage: "refuse a reply, or a file to touch, with a line longer than `SIZE`"},
		&cli.IntFlag{Name: "max-edits", Value: d.Edits, Usage: "refuse a reply holding more than `N` operations (0: no limit)"},
	}
}

// readLimits reads the limit flags.
func readLimits(cmd *cli.Command) (engine.Limits, error) {
	var l engine.Limits
	var err error
	if l.ReplySize, err = parseSize("max-reply-size", cmd.String("max-reply-size")); err != nil {
		return l, err
	}
	if l.FileSize, err = parseSize("max-file-size", cmd.String("max-file-size")); err != nil {
		return l, err
	}
	n, err := parseSize("max-line-length", cmd.String("max-line-length"))
	if err != nil {
		return l, err
	}
	l.LineLength = int(min(n, math.MaxInt32))
	if l.Edits = int(cmd.Int("max-edits")); l.Edits < 0 {
		return l, usageError("--max-edits: %d is not a count", l.Edits)
	}
	return l, nil
}

// sizeFlag writes a byte count the way parseSize reads it back.
func sizeFlag(n int64) string {
	for _, u := range []struct {
		suffix string
		shift  uint
	}{{"g", 30}, {"m", 20}, {"k", 10}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// parseSize reads a byte count as git reads one in its configuration:
// digits with an optional k, m or g (any case; "KiB", "MB" and the like
// are taken too), in powers of 1024.
func parseSize(flag, s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "b"), "i")
	shift := uint(0)
	if t != "" {
		switch t[len(t)-1] {
		case 'k':
			shift = 10
		case 'm':
			shift = 20
		case 'g':
			shift = 30
		}
		if shift > 0 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return 0, usageError("--%s: %q is not a size (a number of bytes, with k, m or g)", flag, s)
	}
	return n << shift, nil
}

// replyTooLarge is the error of a reply over --max-reply-size, found
// while reading it.
func replyTooLarge(name string, limit int64) error {
	return usageError("reply %s is larger than --max-reply-size (%s); raise the limit to read it", name, engine.Size(limit))
}
