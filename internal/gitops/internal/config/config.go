package config

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/wildmatch"
)

// Values holds configuration values by canonical key
// ("section.key" or "section.subsection.key", section and key lower
// case); the last value set wins, as in git.
type Values struct {
	vals  map[string]string
	multi map[string][]string // every value of each key, in order
	// stamps are the files read or looked for, for Changed.
	stamps []stamp
}

// Get returns the value of a canonical key.
func (c *Values) Get(key string) (string, bool) {
	v, ok := c.vals[key]
	return v, ok
}

// All yields every canonical key with its value, in no order.
func (c *Values) All() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for k, v := range c.vals {
			if !yield(k, v) {
				return
			}
		}
	}
}

// Multi returns every value set for a canonical key, lowest priority
// first, for a multi-valued key (safe.directory). A bare name (no "=")
// is "" here, where Get has "true": git hands such keys' readers no
// value, which they take as empty.
func (c *Values) Multi(key string) []string { return c.multi[key] }

func (c *Values) set(key, value string) { c.add(canonKey(key), value, value) }

// add sets a canonical key to value, and appends raw to its values.
func (c *Values) add(key, value, raw string) {
	c.vals[key] = value
	if c.multi == nil {
		c.multi = map[string][]string{}
	}
	c.multi[key] = append(c.multi[key], raw)
}

// includeCtx is what [include] and [includeIf] need to know.
type includeCtx struct {
	gitDir string
	branch string // current branch, "" when detached
	home   string
}

// maxIncludeDepth bounds include chains, as git's MAX_INCLUDE_DEPTH.
const maxIncludeDepth = 10

// Where says which repository configuration is read for, and the
// environment that moves and adds to it.
type Where struct {
	GitDir    string // the worktree's git dir (config.worktree, includeIf gitdir:)
	CommonDir string // where the repository's config is
	Branch    string // the current branch (includeIf onbranch:), "" when detached
	Env       func(string) (string, bool)
	// Protected reads only what git calls protected configuration:
	// system, global and command line, never the repository's own
	// files (config, config.worktree), which whoever made the
	// repository wrote. A program to run is taken from it alone.
	Protected bool
}

// Read reads git configuration as git does for a command run in a
// repository, lowest priority first: system (/etc/gitconfig or
// GIT_CONFIG_SYSTEM, skipped when GIT_CONFIG_NOSYSTEM is true), global
// (GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config then
// ~/.gitconfig), the repository's config, config.worktree when
// extensions.worktreeConfig is on, then GIT_CONFIG_COUNT/KEY_n/VALUE_n
// and GIT_CONFIG_PARAMETERS (git -c). include.path and includeIf
// (gitdir:, gitdir/i:, onbranch:) are followed.
func Read(w Where) (*Values, error) {
	c := &Values{vals: map[string]string{}}
	home, _ := w.Env("HOME")
	inc := &includeCtx{gitDir: w.GitDir, branch: w.Branch, home: home}
	files, err := userFiles(w.Env, home)
	if err != nil {
		return nil, err
	}
	if !w.Protected {
		files = append(files, filepath.Join(w.CommonDir, "config"))
	}
	for _, f := range files {
		if err := c.addFile(f, inc, 0); err != nil {
			return nil, err
		}
	}
	wtConfig, err := c.Bool("extensions.worktreeconfig", false)
	if err != nil {
		return nil, err
	}
	if wtConfig && !w.Protected {
		if err := c.addFile(filepath.Join(w.GitDir, "config.worktree"), inc, 0); err != nil {
			return nil, err
		}
	}
	if err := c.addEnv(w.Env); err != nil {
		return nil, err
	}
	return c, nil
}

// ReadProtected reads git's protected configuration: the system and
// global files and the command line's (GIT_CONFIG_COUNT...,
// GIT_CONFIG_PARAMETERS), never a repository's, which its owner wrote
// (git-config, SCOPES). It is what git trusts with safe.directory
// before it has decided to read a repository. include.path is
// followed; includeIf never holds, as no repository is known yet.
func ReadProtected(env func(string) (string, bool)) (*Values, error) {
	c := &Values{vals: map[string]string{}}
	home, _ := env("HOME")
	inc := &includeCtx{home: home}
	files, err := userFiles(env, home)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := c.addFile(f, inc, 0); err != nil {
			return nil, err
		}
	}
	if err := c.addEnv(env); err != nil {
		return nil, err
	}
	return c, nil
}

// userFiles lists the system and global configuration files, lowest
// priority first.
func userFiles(env func(string) (string, bool), home string) ([]string, error) {
	var files []string
	noSystem, err := EnvBool(env, "GIT_CONFIG_NOSYSTEM")
	if err != nil {
		return nil, err
	}
	if !noSystem {
		sys := "/etc/gitconfig"
		if v, ok := env("GIT_CONFIG_SYSTEM"); ok {
			sys = v
		}
		files = append(files, sys)
	}
	if v, ok := env("GIT_CONFIG_GLOBAL"); ok {
		files = append(files, ExpandHome(v, home))
	} else {
		if xdg, _ := env("XDG_CONFIG_HOME"); xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		} else if home != "" {
			files = append(files, filepath.Join(home, ".config", "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	return files, nil
}

// ReadFile reads one file, ignoring its includes; a missing file holds
// nothing.
func ReadFile(path string) (*Values, error) {
	return readFile(path, nil)
}

// readFile reads one file; inc nil means includes are ignored.
func readFile(path string, inc *includeCtx) (*Values, error) {
	c := &Values{vals: map[string]string{}}
	return c, c.addFile(path, inc, 0)
}

// addFile reads a config file; a missing file adds nothing.
func (c *Values) addFile(path string, inc *includeCtx, depth int) error {
	if path == "" {
		return nil
	}
	c.stamps = append(c.stamps, stampOf(path))
	data, err := fsread.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading config: %w", err)
	}
	cb := func(sect, sub, key, value string, blank bool) error {
		if key == "" {
			return nil // a section header
		}
		raw := value
		if blank {
			value = "true"
		}
		full := strings.ToLower(sect) + "." + strings.ToLower(key)
		if sub != "" {
			full = strings.ToLower(sect) + "." + sub + "." + strings.ToLower(key)
		}
		c.add(full, value, raw)
		if inc == nil || strings.ToLower(key) != "path" {
			return nil
		}
		s := strings.ToLower(sect)
		if (s == "include" && sub == "") || (s == "includeif" && inc.matches(sub, filepath.Dir(path))) {
			if depth >= maxIncludeDepth {
				return fmt.Errorf("config includes nested too deeply at %s", path)
			}
			p := ExpandHome(value, inc.home)
			if !filepath.IsAbs(p) {
				p = filepath.Join(filepath.Dir(path), p)
			}
			return c.addFile(p, inc, depth+1)
		}
		return nil
	}
	if err := parseFile(data, cb); err != nil {
		return fmt.Errorf("bad config file %s: %w", path, err)
	}
	return nil
}

// matches reports whether an includeIf condition holds; dir is the
// directory of the file holding it.
func (inc *includeCtx) matches(cond, dir string) bool {
	kind, pat, ok := strings.Cut(cond, ":")
	if !ok {
		return false
	}
	switch kind {
	case "gitdir", "gitdir/i":
		if inc.gitDir == "" {
			return false
		}
		if strings.HasPrefix(pat, "~/") {
			pat = inc.home + pat[1:]
		} else if strings.HasPrefix(pat, "./") {
			pat = dir + pat[1:]
		}
		if !strings.HasPrefix(pat, "/") {
			pat = "**/" + pat
		}
		if strings.HasSuffix(pat, "/") {
			pat += "**"
		}
		fold := kind == "gitdir/i"
		if wildmatch.Match(pat, inc.gitDir, fold) {
			return true
		}
		real, err := filepath.EvalSymlinks(inc.gitDir)
		return err == nil && wildmatch.Match(pat, real, fold)
	case "onbranch":
		if inc.branch == "" {
			return false
		}
		if strings.HasSuffix(pat, "/") {
			pat += "**"
		}
		return wildmatch.Match(pat, inc.branch, false)
	}
	return false
}

// addEnv adds GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n and
// then GIT_CONFIG_PARAMETERS (what `git -c k=v` passes on).
func (c *Values) addEnv(env func(string) (string, bool)) error {
	if v, ok := env("GIT_CONFIG_COUNT"); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("bogus GIT_CONFIG_COUNT %q", v)
		}
		for i := range n {
			k, ok := env("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			if !ok || k == "" {
				return fmt.Errorf("missing config key GIT_CONFIG_KEY_%d", i)
			}
			val, ok := env("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
			if !ok {
				return fmt.Errorf("missing config value GIT_CONFIG_VALUE_%d", i)
			}
			c.set(k, val)
		}
	}
	if v, ok := env("GIT_CONFIG_PARAMETERS"); ok && v != "" {
		pairs, err := parseConfigParameters(v)
		if err != nil {
			return err
		}
		for _, kv := range pairs {
			c.set(kv[0], kv[1])
		}
	}
	return nil
}

// parseConfigParameters parses GIT_CONFIG_PARAMETERS: shell-single-
// quoted items separated by spaces, either 'key'='value' or the older
// 'key=value' ('key' alone means true).
func parseConfigParameters(s string) ([][2]string, error) {
	var out [][2]string
	bad := fmt.Errorf("bogus format in GIT_CONFIG_PARAMETERS: %q", s)
	for {
		s = strings.TrimLeft(s, " \t\n")
		if s == "" {
			return out, nil
		}
		key, rest, ok := sqDequote(s)
		if !ok {
			return nil, bad
		}
		var value string
		if strings.HasPrefix(rest, "=") {
			rest = rest[1:]
			if strings.HasPrefix(rest, "'") {
				if value, rest, ok = sqDequote(rest); !ok {
					return nil, bad
				}
			} else {
				value = "true"
			}
		} else if k, v, found := strings.Cut(key, "="); found {
			key, value = k, v
		} else {
			value = "true"
		}
		out = append(out, [2]string{key, value})
		s = rest
	}
}

// sqDequote reads one single-quoted word as git's sq_quote writes it
// (a quote inside the word is written as the four characters ' \ ' ').
func sqDequote(s string) (word, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", s, false
	}
	var b strings.Builder
	i := 1
	for {
		j := strings.IndexByte(s[i:], '\'')
		if j < 0 {
			return "", s, false
		}
		b.WriteString(s[i : i+j])
		i += j + 1
		if len(s) >= i+3 && s[i] == '\\' && (s[i+1] == '\'' || s[i+1] == '!') && s[i+2] == '\'' {
			b.WriteByte(s[i+1])
			i += 3
			continue
		}
		return b.String(), s[i:], true
	}
}

// canonKey lower-cases the section and key of "section[.sub].key".
func canonKey(k string) string {
	first := strings.IndexByte(k, '.')
	last := strings.LastIndexByte(k, '.')
	if first < 0 {
		return strings.ToLower(k)
	}
	return strings.ToLower(k[:first]) + k[first:last] + strings.ToLower(k[last:])
}

// ExpandHome expands a leading "~/" (or "~" alone) to home, as git
// does for paths in its configuration.
func ExpandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") && home != "" {
		return home + p[1:]
	}
	return p
}
