package config

import "os"

// stamp is a file as it was when it was read (fi nil: it did not
// exist), to tell later whether it changed.
type stamp struct {
	path string
	fi   os.FileInfo
}

// stampOf stats path. It is taken before the file is read, so that a
// change made while it is read shows as a change at the next look.
func stampOf(path string) stamp {
	fi, err := os.Stat(path)
	if err != nil {
		fi = nil
	}
	return stamp{path: path, fi: fi}
}

// changed reports whether the file is no longer as stamped: created,
// removed, replaced, or of another size or modification time.
func (s stamp) changed() bool {
	now := stampOf(s.path)
	switch {
	case s.fi == nil || now.fi == nil:
		return (s.fi == nil) != (now.fi == nil)
	default:
		return !os.SameFile(s.fi, now.fi) || s.fi.Size() != now.fi.Size() || !s.fi.ModTime().Equal(now.fi.ModTime())
	}
}

// Changed reports whether a file these values were read from (the
// included ones too, and those looked for but missing) is no longer as
// it was when it was read: a process that keeps values across requests
// (the MCP server, SPEC section 2, mcp) reads them again then, as a
// new git command would.
func (c *Values) Changed() bool {
	for _, s := range c.stamps {
		if s.changed() {
			return true
		}
	}
	return false
}
