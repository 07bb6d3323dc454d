package gitops

// How many hex digits git shows of an object name: core.abbrev, by
// default grown with the size of the repository, and each name then
// lengthened until no other object shares it (git's object-name.c,
// repo_find_unique_abbrev_r).

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
)

const (
	// minAbbrev and hexLen bound core.abbrev (git's minimum_abbrev and
	// the_hash_algo->hexsz).
	minAbbrev = 4
	hexLen    = 40
	// fallbackAbbrev is git's FALLBACK_DEFAULT_ABBREV: the automatic
	// length of a repository of fewer than 16384 packed objects.
	fallbackAbbrev = 7
)

// ErrBadAbbrev is wrapped by the error of Abbrev for a core.abbrev git
// refuses (git refuses to run at all then).
var ErrBadAbbrev = errors.New("bad core.abbrev")

// Abbrev returns how many hex digits git abbreviates object names to
// in r, as `git diff` and `git log --oneline` do: core.abbrev when it is
// a number (4 to 40), 40 when it is false ("no", "off", "false", empty),
// and otherwise ("auto", or unset) a length that grows with the number
// of objects in the packs of r and its alternates: 7 below 2^14
// objects, then one more digit for every fourfold growth. Loose
// objects do not count (git ignores them there: a repository of many
// is about to be packed or pruned). A multi-pack-index is not read:
// the packs' own indexes are counted, which gives git's count unless
// several packs hold the same objects. ShortID lengthens the length
// further for a name that another object shares.
//
// The error wraps ErrBadAbbrev for a value git refuses ("yes",
// "garbage", 3, 41), or is one of reading the configuration.
func (r *Repo) Abbrev() (int, error) {
	cfg, err := r.config()
	if err != nil {
		return 0, err
	}
	v, ok := cfg.Get("core.abbrev")
	if !ok {
		v = "auto"
	}
	n, auto, err := parseAbbrev(v)
	if err != nil || !auto {
		return n, err
	}
	count, err := r.objects().PackedCount()
	if err != nil {
		return 0, err
	}
	return autoAbbrev(count), nil
}

// parseAbbrev reads a set core.abbrev as git's config.c does; auto
// reports the automatic length. A valueless "abbrev" line comes here
// as "true", which git refuses too (as a missing value).
func parseAbbrev(v string) (n int, auto bool, err error) {
	switch {
	case strings.EqualFold(v, "auto"):
		return 0, true, nil
	case isFalseText(v):
		return hexLen, false, nil
	}
	n, err = config.Int(v)
	if err != nil {
		return 0, false, fmt.Errorf("%w: bad numeric config value '%s': %v", ErrBadAbbrev, v, err)
	}
	if n < minAbbrev || n > hexLen {
		return 0, false, fmt.Errorf("%w: abbrev length out of range: %d", ErrBadAbbrev, n)
	}
	return n, false, nil
}

// isFalseText is git_parse_maybe_bool_text's false: "" counts, and
// "0" does not (that one is read as a number).
func isFalseText(v string) bool {
	switch strings.ToLower(v) {
	case "", "false", "no", "off":
		return true
	}
	return false
}

// autoAbbrev is git's automatic abbreviation for count objects: 2^len
// objects expect a collision among names of len/2 bits, and a hex
// digit holds four bits, so half the bit length of count, rounded up,
// and never under 7.
func autoAbbrev(count uint64) int {
	return max((max(bits.Len64(count), 1)+1)/2, fallbackAbbrev)
}

// ShortID returns the first n hex digits of id (a full hex name),
// lengthened as git's find_unique_abbrev does until no other object of
// r or its alternates, packed or loose, starts with them; all of id
// when n is 0 or 40 or more, as in git. An object that is not in r is
// abbreviated against those that are, as git abbreviates the blob of a
// file it has not yet written. A pack or loose directory that cannot
// be read counts as empty, as git passes over it.
func (r *Repo) ShortID(id string, n int) string {
	if n <= 0 || n >= len(id) || len(id) != hexLen {
		return id
	}
	h, ok := parseHash(id)
	if !ok {
		return id[:n]
	}
	shared := r.objects().LongestShared(h)
	// git lengthens only below 32 digits (its GIT_MAX_RAWSZ bound).
	if shared >= n && shared < 32 {
		n = shared + 1
	}
	return id[:n]
}

// parseHash reads a full hex name, either case.
func parseHash(id string) (oid.ID, bool) {
	if len(id) != hexLen || !oid.IsHex(id) {
		return oid.Zero, false
	}
	return oid.FromHex(id), true
}
