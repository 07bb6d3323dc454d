package gitops

// The booleans of the configuration that gitops reads, refused as git
// refuses them.

import (
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
)

// checkBooleans refuses a configuration holding a value that is no
// boolean for a key gitops reads as one (SPEC section 5): git dies on
// it ("bad boolean config value"), core.bare from the repository's
// config before it reads anything else (setup.c), the others in
// git_default_core_config, which nearly every command runs; so a
// repository git refuses is refused here too, with git's message,
// rather than read as if the value were false. core.autocrlf may also
// be "input" and core.logAllRefUpdates "always", in any case.
func checkBooleans(cfg *config.Values) error {
	for k, v := range cfg.All() {
		switch {
		case k == "core.autocrlf" && strings.EqualFold(v, "input"),
			k == "core.logallrefupdates" && strings.EqualFold(v, "always"):
			continue
		case k == "core.bare", k == "core.filemode", k == "core.ignorecase", k == "core.autocrlf", k == "core.logallrefupdates",
			strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".promisor"):
			if _, err := config.ParseBool(k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// cfgBool is the boolean key of cfg, def when unset; checkBooleans
// has refused a configuration where it is no boolean.
func cfgBool(cfg *config.Values, key string, def bool) bool {
	v, ok := cfg.Get(key)
	if !ok {
		return def
	}
	return mustBool(v)
}

// mustBool reads a value checkBooleans has let through.
func mustBool(v string) bool {
	b, _ := config.MaybeBool(v)
	return b
}
