package engine

import (
	"errors"
	"path"
	"sort"
	"strings"
)

// Limits of the path suggestions: how many a failed edit gets, how
// many missing names of a reply are looked for (each costs a pass
// over the base's paths), and how far a suggestion may stand from
// the name.
const (
	maxSuggestions  = 3
	maxSuggestNames = 20
	maxDirDistance  = 2 // directory levels added, dropped or renamed
)

// addSuggestions gives each edit that failed because its path is no
// file of the base (ErrNoFile) the closest paths that are: the same
// name in another directory, then near spellings of it. The base is
// listed once per reply (the pathSet the suffix search may already
// have loaded), and each name costs one pass over it, with a length
// test before any distance is computed.
func (r *resolver) addSuggestions(outs []Outcome) {
	byName := map[string][]*EditError{}
	var names []string
	for i := range outs {
		o := &outs[i]
		if o.Status != Failed || o.Err == nil || !errors.Is(o.Err, ErrNoFile) || o.Err.Path == "" {
			continue
		}
		p := o.Err.Path
		if _, ok := byName[p]; !ok {
			if len(names) == maxSuggestNames {
				continue
			}
			names = append(names, p)
		}
		byName[p] = append(byName[p], o.Err)
	}
	if len(names) == 0 {
		return
	}
	ps := r.pathSet()
	if ps.load() != nil {
		return // advice only: a base that cannot be listed gets none
	}
	for _, name := range names {
		s := closestPaths(name, ps.base, func(p string) bool { _, ok := ps.present(p); return ok })
		for _, e := range byName[name] {
			e.Suggestions = s
		}
	}
}

// candidate is one path that may be the one a name meant.
type candidate struct {
	path       string
	tier, cost int
}

// closestPaths returns up to maxSuggestions of paths that name may
// have meant, best first: the same path in another case; then the same
// file name (in any case) in a directory at most maxDirDistance levels
// away (a level missing, extra or renamed); then a file name a few
// edits away (a typo, a plural, another extension), a directory
// level counting as one edit more. Ties go by path. present filters out
// the paths the reply has removed.
func closestPaths(name string, paths []string, present func(string) bool) []string {
	dir, base := splitPath(name)
	limit := nameDistanceLimit(len(base))
	var dirParts []string // split once, when a candidate needs it
	dirDist := func(d string) int {
		if dirParts == nil {
			dirParts = splitDir(dir)
		}
		return partsDistance(dirParts, splitDir(d), maxDirDistance)
	}
	var bag [256]int16 // base's bytes, ASCII case aside
	for i := range len(base) {
		bag[lowerASCII(base[i])]++
	}
	var found []candidate
	for _, p := range paths {
		if p == name {
			continue
		}
		pd, pb := splitPath(p)
		if d := len(pb) - len(base); d > limit || -d > limit {
			continue // cheap test first: most paths end here
		}
		var c candidate
		switch {
		case len(p) == len(name) && strings.EqualFold(p, name):
			c = candidate{p, 0, 0}
		case strings.EqualFold(pb, base):
			dd := dirDist(pd)
			if dd > maxDirDistance {
				continue
			}
			c = candidate{p, 1, dd}
		default:
			if bagDistance(&bag, len(base), pb) > limit {
				continue // cheap lower bound of the distance
			}
			bd := foldDistance(base, pb, limit)
			if bd > limit {
				continue
			}
			dd := dirDist(pd)
			if bd+dd > limit {
				continue
			}
			c = candidate{p, 2, bd + dd}
		}
		if present(p) {
			found = append(found, c)
		}
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.tier != b.tier {
			return a.tier < b.tier
		}
		if a.cost != b.cost {
			return a.cost < b.cost
		}
		return a.path < b.path
	})
	var out []string
	for _, c := range found[:min(len(found), maxSuggestions)] {
		out = append(out, c.path)
	}
	return out
}

// nameDistanceLimit is how many edits a file name of n bytes may be
// away from another and still be taken for a misspelling of it: none
// would be for a short name, which any other short name is near.
func nameDistanceLimit(n int) int {
	switch {
	case n <= 3:
		return 0
	case n <= 6:
		return 1
	case n <= 12:
		return 2
	}
	return 3
}

func splitPath(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

func splitDir(d string) []string {
	if d == "" {
		return []string{}
	}
	return strings.Split(path.Clean(d), "/")
}

// partsDistance is the edit distance between two directory paths
// counted in whole levels (a level added, dropped or renamed; case
// aside), or more than limit when it exceeds limit.
func partsDistance(a, b []string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	return distance(len(a), len(b), func(i, j int) bool { return strings.EqualFold(a[i], b[j]) }, limit)
}

// foldDistance is the edit distance between a and b in bytes, ASCII
// case aside, or more than limit when it exceeds limit.
func foldDistance(a, b string, limit int) int {
	return distance(len(a), len(b), func(i, j int) bool { return lowerASCII(a[i]) == lowerASCII(b[j]) }, limit)
}

// bagDistance is a lower bound of the edit distance between a name of
// size bytes, which bag counts, and b (ASCII case aside): the bytes of
// the longer that the other lacks, each needing an edit. bag is left
// as it was.
func bagDistance(bag *[256]int16, size int, b string) int {
	var n int // the bytes of bag that b holds
	for i := range len(b) {
		c := lowerASCII(b[i])
		bag[c]--
		if bag[c] >= 0 {
			n++
		}
	}
	for i := range len(b) {
		bag[lowerASCII(b[i])]++
	}
	return max(size, len(b)) - n
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// distance is the Levenshtein distance of two sequences of lengths n
// and m whose elements same compares, stopping once every way is
// beyond limit (then it returns limit+1).
func distance(n, m int, same func(i, j int) bool, limit int) int {
	var bufA, bufB [64]int // no allocation for the names of a path
	var prev, cur []int
	if m+1 > len(bufA) {
		prev, cur = make([]int, m+1), make([]int, m+1)
	} else {
		prev, cur = bufA[:m+1], bufB[:m+1]
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= n; i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= m; j++ {
			cost := 1
			if same(i-1, j-1) {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[m], limit+1)
}
