package gitops

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
)

// Ident is a person and a moment, as an author or committer line of a
// commit holds them. When carries the time zone written into commits.
type Ident struct {
	Name, Email string
	When        time.Time
}

// Author returns the author of new commits as git determines it:
// GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL win over author.name and
// author.email, which win over user.name and user.email (and $EMAIL for
// the address); GIT_AUTHOR_DATE gives the date, else now. It fails when
// no name or no email is found, as git does ("Author identity
// unknown"), or when GIT_AUTHOR_DATE cannot be parsed.
func (r *Repo) Author() (Ident, error) {
	id, _, err := r.ident("author")
	return id, err
}

// Committer is Author for the committer: GIT_COMMITTER_NAME,
// GIT_COMMITTER_EMAIL, GIT_COMMITTER_DATE, committer.name,
// committer.email, then user.name and user.email.
func (r *Repo) Committer() (Ident, error) {
	id, _, err := r.ident("committer")
	return id, err
}

// ident resolves an identity of role "author" or "committer"; fixed
// reports whether the date came from the environment.
func (r *Repo) ident(role string) (id Ident, fixed bool, err error) {
	cfg, err := r.config()
	if err != nil {
		return Ident{}, false, err
	}
	return identFrom(role, cfg, r.env, time.Now)
}

func identFrom(role string, cfg *config.Values, env func(string) (string, bool), now func() time.Time) (Ident, bool, error) {
	up := strings.ToUpper(role)
	lookup := func(envVar, key string, more ...string) (string, bool) {
		if v, ok := env(envVar); ok {
			return v, true
		}
		for _, k := range append([]string{key}, more...) {
			if v, ok := cfg.Get(k); ok {
				return v, true
			}
		}
		return "", false
	}
	name, okName := lookup("GIT_"+up+"_NAME", role+".name", "user.name")
	email, okEmail := lookup("GIT_"+up+"_EMAIL", role+".email", "user.email")
	if !okEmail {
		email, okEmail = env("EMAIL")
	}
	if !okName || !okEmail {
		title := strings.ToUpper(role[:1]) + role[1:]
		return Ident{}, false, fmt.Errorf("%s identity unknown: run\n\n"+
			"  git config --global user.email \"you@example.com\"\n"+
			"  git config --global user.name \"Your Name\"\n\n"+
			"to set your account's default identity (or set GIT_%s_NAME and GIT_%s_EMAIL)", title, up, up)
	}
	id := Ident{Name: withoutCrud(name), Email: withoutCrud(email)}
	if id.Name == "" {
		return Ident{}, false, fmt.Errorf("empty ident name (for <%s>) not allowed", id.Email)
	}
	if v, ok := env("GIT_" + up + "_DATE"); ok && v != "" {
		when, err := parseGitDate(v)
		if err != nil {
			return Ident{}, false, fmt.Errorf("GIT_%s_DATE: %w", up, err)
		}
		id.When = when
		return id, true, nil
	}
	id.When = now()
	return id, false, nil
}

// withoutCrud trims what git trims from names and emails (space,
// control characters and .,:;<>"\' at either end) and drops "<", ">"
// and newlines inside, as git's strbuf_addstr_without_crud.
func withoutCrud(s string) string {
	crud := func(c byte) bool {
		return c <= ' ' || strings.IndexByte(".,:;<>\"\\'", c) >= 0
	}
	i, j := 0, len(s)
	for i < j && crud(s[i]) {
		i++
	}
	for j > i && crud(s[j-1]) {
		j--
	}
	return strings.Map(func(r rune) rune {
		if r == '<' || r == '>' || r == '\n' {
			return -1
		}
		return r
	}, s[i:j])
}

var (
	rawDateRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@?([0-9]+)(?:\s+([+-][0-9]{4}))?$`) })
	isoDateRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]([0-9]{2}:[0-9]{2}:[0-9]{2})(\.[0-9]+)?\s*(Z|[+-][0-9]{2}:?[0-9]{2})?$`)
	})
	rfc2822Fmt = []string{
		"Mon, 2 Jan 2006 15:04:05 -0700",
		"2 Jan 2006 15:04:05 -0700",
		"Mon, 2 Jan 2006 15:04 -0700",
		"2 Jan 2006 15:04 -0700",
	}
)

// parseGitDate parses the date formats git documents for
// GIT_AUTHOR_DATE and GIT_COMMITTER_DATE: git's internal format
// ("@1112911993 +0200" or "1112911993 +0200"; "@1112911993" or a bare
// number of more than 8 digits), RFC 2822 ("Thu, 07 Apr 2005 22:13:13
// +0200", optionally "(CEST)" after it) and ISO 8601
// ("2005-04-07T22:13:13", "2005-04-07 22:13:13 +0200", optional
// fraction, which is dropped, zone "Z", "+0200", "+02:00"). Without a
// zone the local one applies, as in git. The result carries the zone.
func parseGitDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if m := rawDateRE().FindStringSubmatch(s); m != nil && (s[0] == '@' || m[2] != "" || len(m[1]) > 8) {
		sec, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("invalid date %q", s)
		}
		loc := time.Local
		if m[2] != "" {
			loc = zoneOf(m[2])
		}
		return time.Unix(sec, 0).In(loc), nil
	}
	if m := isoDateRE().FindStringSubmatch(s); m != nil {
		loc := time.Local
		if m[4] == "Z" {
			loc = time.UTC
		} else if m[4] != "" {
			loc = zoneOf(strings.ReplaceAll(m[4], ":", ""))
		}
		t, err := time.ParseInLocation("2006-01-02 15:04:05", m[1]+" "+m[2], loc)
		if err != nil {
			return time.Time{}, fmt.Errorf("invalid date %q", s)
		}
		return t, nil
	}
	rfc := s
	if i := strings.IndexByte(rfc, '('); i > 0 { // "... +0200 (CEST)"
		rfc = strings.TrimSpace(rfc[:i])
	}
	for _, layout := range rfc2822Fmt {
		if t, err := time.Parse(layout, rfc); err == nil {
			_, off := t.Zone()
			return t.In(time.FixedZone("", off)), nil
		}
	}
	return time.Time{}, fmt.Errorf("invalid date %q (use \"@<unix> <+zone>\", RFC 2822 or ISO 8601)", s)
}

// zoneOf turns "+hhmm" into a fixed zone.
func zoneOf(z string) *time.Location {
	h, _ := strconv.Atoi(z[1:3])
	m, _ := strconv.Atoi(z[3:5])
	off := h*3600 + m*60
	if z[0] == '-' {
		off = -off
	}
	return time.FixedZone("", off)
}
