package engine

import "strings"

// isDotGit reports whether one component of a path is a name some
// filesystem git runs on takes for ".git": the components git's
// verify_path refuses with core.protectNTFS and core.protectHFS on
// (read-cache.c verify_path_internal, path.c is_ntfs_dotgit, utf8.c
// is_hfs_dotgit), and that git fsck --strict reports as hasDotgit when
// a tree holds them. git switches these checks on per platform; a
// commit recorded here is checked out everywhere, so all of them apply
// on every platform.
//
//   - HFS+ ignores some code points when it compares names, so
//     ".g\u200cit" is ".git" on a Mac.
//   - NTFS drops trailing dots and spaces (".git. ."), reads what
//     follows a colon as a stream of the file (".git::$INDEX_ALLOCATION"
//     is the directory itself, ".git:x" a stream of it), and knows
//     ".git" by its 8.3 short name "git~1".
//
// Case never matters. The two are combined (ignorable code points are
// dropped before the NTFS rules look), which refuses a few names
// neither filesystem alone takes for ".git"; a name built that way is
// hostile, not something a model means. ".gitmodules" and its short
// names are refused by git only as symbolic links, which no edit here
// writes.
func isDotGit(component string) bool {
	s := strings.Map(func(r rune) rune {
		if hfsIgnorable(r) {
			return -1
		}
		return r
	}, component)
	var rest string
	switch {
	case len(s) >= 4 && strings.EqualFold(s[:4], ".git"):
		rest = s[4:]
	case len(s) >= 5 && strings.EqualFold(s[:5], "git~1"):
		rest = s[5:]
	default:
		return false
	}
	rest = strings.TrimLeft(rest, ". ")
	return rest == "" || rest[0] == ':'
}

// hfsIgnorable reports whether HFS+ leaves r out when it compares file
// names: git's list in utf8.c next_hfs_char (zero-width joiners,
// direction marks and embeddings, the deprecated shaping controls, the
// byte-order mark).
func hfsIgnorable(r rune) bool {
	switch {
	case r == 0x200c, r == 0x200d, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x206a && r <= 0x206f:
		return true
	case r == 0xfeff:
		return true
	}
	return false
}
