package gitops

import (
	"fmt"
	"strconv"
	"strings"
)

// ColorConfig says what git's configuration asks of colour in the
// command name: color.<name> when it is set, else color.ui, read as
// git's git_config_colorbool reads them: "always", "never" or "auto"
// (any case), a boolean false is "never" and any other boolean "auto".
// It returns "" when neither key is set, and an error naming the key for
// a value that is none of these, which git refuses too.
func (r *Repo) ColorConfig(name string) (string, error) {
	cfg, err := r.config()
	if err != nil {
		return "", err
	}
	for _, key := range []string{"color." + strings.ToLower(name), "color.ui"} {
		v, ok := cfg.Get(key)
		if !ok {
			continue
		}
		switch w := strings.ToLower(v); w {
		case "always", "never", "auto":
			return w, nil
		}
		on, ok := maybeBool(v)
		switch {
		case !ok:
			return "", fmt.Errorf("bad boolean config value '%s' for '%s'", v, key)
		case on:
			return "auto", nil
		}
		return "never", nil
	}
	return "", nil
}

// maybeBool reads a git boolean strictly, as git_parse_maybe_bool: the
// words true/yes/on and false/no/off in any case, the empty value
// (false), and integers (non-zero is true); ok is false for anything
// else.
func maybeBool(v string) (value, ok bool) {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	n, err := strconv.Atoi(v)
	return n != 0, err == nil
}
