package config

import (
	"fmt"
	"strings"
)

// MaybeBool reads a git boolean as git_parse_maybe_bool does: true,
// yes, on and false, no, off in any case, the empty value (false), and
// an integer as Int reads it, units and all (non-zero is true). ok is
// false for anything else: git dies on such a value wherever it reads
// it as a boolean (git_config_bool).
func MaybeBool(v string) (value, ok bool) {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	n, err := Int(v)
	return n != 0, err == nil
}

// ParseBool is MaybeBool with git's refusal of anything else, naming
// the value and its key (or environment variable) as git_config_bool
// does.
func ParseBool(key, v string) (bool, error) {
	b, ok := MaybeBool(v)
	if !ok {
		return false, fmt.Errorf("bad boolean config value '%s' for '%s'", v, key)
	}
	return b, nil
}

// Bool reads the boolean key (canonical), def when it is not set; a
// value that is no boolean is git's error.
func (c *Values) Bool(key string, def bool) (bool, error) {
	v, ok := c.Get(key)
	if !ok {
		return def, nil
	}
	return ParseBool(key, v)
}

// EnvBool reads a boolean environment variable as git_env_bool does:
// false when unset, git's error for a value that is no boolean.
func EnvBool(env func(string) (string, bool), name string) (bool, error) {
	v, ok := env(name)
	if !ok {
		return false, nil
	}
	return ParseBool(name, v)
}
