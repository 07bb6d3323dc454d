package gitops

// The clean conversion git applies to a working tree file when it adds
// it (git's convert.c, convert_to_git), so that --base worktree
// resolves edits against, and records, what git add would store: line
// endings (core.autocrlf, core.eol, the text, eol and crlf attributes)
// and ident. A clean filter or a working-tree-encoding would need code
// or tables this package does not run: such a path is refused.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"

	"github.com/git-llm-apply/git-llm-apply/internal/poll"
)

// ErrConversion: a working tree file needs a clean conversion that git
// llm-apply does not do. The error names the path and the attribute.
var ErrConversion = errors.New("cannot store what git add would")

// crlfAction is what git does to line endings on adding a file.
type crlfAction int

const (
	crlfUndefined crlfAction = iota
	crlfBinary               // nothing
	crlfText                 // CR LF becomes LF
	crlfAuto                 // the same, unless the file looks binary or its staged version has CR LF
)

// checkin is what git add does to one path.
type checkin struct {
	crlf     crlfAction
	ident    bool
	filter   string // a configured clean filter's driver name
	filterBy string // the key that configures it
	encoding string // a working-tree-encoding other than UTF-8
}

// checkinOf decides the conversion of a path from its attributes and
// the configuration, as git's convert_attrs does for adding a file:
// text, else crlf, says whether it is text (set, -text, "auto",
// "input"); eol=lf or eol=crlf makes it text (or keeps it auto) unless
// it is -text; left undecided, core.autocrlf true or input makes it
// auto, and false leaves it alone. core.eol only picks what a checkout
// writes.
func checkinOf(attrs map[string]string, cfg *config.Values) checkin {
	var c checkin
	c.crlf = crlfOf(attrs["text"])
	if c.crlf == crlfUndefined {
		c.crlf = crlfOf(attrs["crlf"])
	}
	if eol := attrs["eol"]; c.crlf != crlfBinary && (eol == "lf" || eol == "crlf") && c.crlf != crlfAuto {
		c.crlf = crlfText
	}
	if c.crlf == crlfUndefined {
		v, _ := cfg.Get("core.autocrlf")
		if strings.EqualFold(v, "input") || cfgBool(cfg, "core.autocrlf", false) {
			c.crlf = crlfAuto
		} else {
			c.crlf = crlfBinary
		}
	}
	c.ident = attrs["ident"] == attrSet
	if f := attrs["filter"]; !strings.HasPrefix(f, "\x00") {
		for _, k := range []string{"process", "clean"} {
			if v, _ := cfg.Get("filter." + f + "." + k); v != "" {
				c.filter, c.filterBy = f, "filter."+f+"."+k
				break
			}
		}
	}
	if e := attrs["working-tree-encoding"]; !strings.HasPrefix(e, "\x00") && e != "" &&
		!strings.EqualFold(e, "UTF-8") && !strings.EqualFold(e, "UTF8") {
		c.encoding = e
	}
	return c
}

// crlfOf reads a text or crlf attribute (git_path_check_crlf).
func crlfOf(v string) crlfAction {
	switch v {
	case attrSet, "input":
		return crlfText
	case attrUnset:
		return crlfBinary
	case "auto":
		return crlfAuto
	}
	return crlfUndefined
}

// clean returns what git add stores for data, a working tree file at
// path; staged reads the path's staged blob (nil when there is none),
// for text=auto's "safe autocrlf" rule. A clean filter or an encoding is
// ErrConversion.
func (c checkin) clean(ctx context.Context, path string, data []byte, staged func() ([]byte, error)) ([]byte, error) {
	if c.filter != "" {
		return nil, fmt.Errorf("%w: %s has the attribute filter=%s, and %s configures a command that git add runs on it; git llm-apply runs no command the repository configures: resolve against the index (--base index) instead",
			ErrConversion, path, c.filter, c.filterBy)
	}
	if c.encoding != "" {
		return nil, fmt.Errorf("%w: %s has the attribute working-tree-encoding=%s, which git add re-encodes as UTF-8 and git llm-apply does not: resolve against the index (--base index) instead",
			ErrConversion, path, c.encoding)
	}
	data, err := c.crlfToGit(ctx, data, staged)
	if err != nil {
		return nil, err
	}
	if c.ident {
		data = identToGit(data)
	}
	return data, nil
}

// crlfToGit is git's crlf_to_git.
func (c checkin) crlfToGit(ctx context.Context, data []byte, staged func() ([]byte, error)) ([]byte, error) {
	if c.crlf == crlfBinary || len(data) == 0 {
		return data, nil
	}
	st, err := textStatsContext(ctx, data)
	if err != nil {
		return nil, err
	}
	if st.crlf == 0 {
		return data, nil
	}
	if c.crlf == crlfAuto {
		if st.binary() {
			return data, nil
		}
		// git's "safe autocrlf": a file whose staged version has CR LF
		// (and is text) was committed so on purpose.
		old, err := staged()
		if err != nil {
			return nil, err
		}
		if bytes.IndexByte(old, '\r') >= 0 {
			if o := textStats(old); !o.binary() && o.crlf > 0 {
				return data, nil
			}
		}
		// The stats found no lone CR: every CR goes.
		return bytes.ReplaceAll(data, []byte("\r"), nil), nil
	}
	return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), nil
}

// stats counts what git's gather_stats counts.
type stats struct {
	nul, loneCR, loneLF, crlf, printable, nonPrintable int
}

func textStats(b []byte) stats {
	s, _ := textStatsContext(context.Background(), b)
	return s
}

// textStatsContext is textStats that looks at ctx every poll.Step
// bytes, and returns its error when it has ended (SPEC section 2).
func textStatsContext(ctx context.Context, b []byte) (stats, error) {
	var s stats
	next := 0
	for i := 0; i < len(b); i++ {
		if i >= next {
			if err := poll.Check(ctx, min(poll.Step, len(b)-i)); err != nil {
				return s, err
			}
			next = i + poll.Step
		}
		switch c := b[i]; {
		case c == '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				s.crlf++
				i++
			} else {
				s.loneCR++
			}
		case c == '\n':
			s.loneLF++
		case c == 0x7f:
			s.nonPrintable++
		case c < 0x20:
			switch c {
			case '\b', '\t', 0x1b, '\f':
				s.printable++
			case 0:
				s.nul++
				s.nonPrintable++
			default:
				s.nonPrintable++
			}
		default:
			s.printable++
		}
	}
	// A DOS end-of-file mark at the very end is not counted.
	if len(b) > 0 && b[len(b)-1] == 0x1a {
		s.nonPrintable--
	}
	return s, nil
}

// binary is git's convert_is_binary.
func (s stats) binary() bool {
	return s.loneCR > 0 || s.nul > 0 || s.printable>>7 < s.nonPrintable
}

// identToGit turns each "$Id: ... $" into "$Id$" (git's ident_to_git):
// the expansion git writes on checkout is not stored. A "$Id:" whose
// closing "$" is on a later line, or missing, stays.
func identToGit(b []byte) []byte {
	if !bytes.Contains(b, []byte("$Id")) {
		return b
	}
	var out bytes.Buffer
	for {
		d := bytes.IndexByte(b, '$')
		if d < 0 {
			break
		}
		out.Write(b[:d+1])
		b = b[d+1:]
		if len(b) > 3 && string(b[:3]) == "Id:" {
			end := bytes.IndexByte(b[3:], '$')
			if end < 0 {
				break
			}
			if bytes.IndexByte(b[3:3+end], '\n') >= 0 {
				continue
			}
			out.WriteString("Id$")
			b = b[3+end+1:]
		}
	}
	out.Write(b)
	return out.Bytes()
}
