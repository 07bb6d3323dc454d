package translate

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The acceptance corpus: a 4 MB transcript of SEARCH/REPLACE replies
// and what the reference parser (aider's find_original_update_blocks)
// extracts from it. See its NOTICE.md.
const (
	corpusDir        = "../../../shared/corpus/aider-chat-history"
	corpusTranscript = "chat-history.md"
	corpusGold       = "chat-history-search-replace-gold.txt"
	corpusDeviations = "../../testdata/searchreplace/corpus-deviations.txt"
)

// corpusSection is one section of the transcript as the gold's
// generator cut it.
type corpusSection struct {
	Index   int // position in the split of the whole transcript
	Header  string
	Content string // the section without its header line: the reply
}

// splitTranscript cuts text like Python's re.split(r"(?=####\s)", text):
// before every "####" followed by white space, wherever it stands (also
// inside a line, as in "##########\n", whose last four "#" start a
// section).
func splitTranscript(text string) []string {
	var parts []string
	start := 0
	for i := 0; ; {
		j := strings.Index(text[i:], "####")
		if j < 0 {
			break
		}
		p := i + j
		// The match is the last four of a run of "#" followed by space.
		end := p + countPrefix(text[p:], '#')
		r, _ := utf8.DecodeRuneInString(text[end:])
		if end < len(text) && unicode.IsSpace(r) {
			parts = append(parts, text[start:end-4])
			start = end - 4
		}
		i = end
	}
	return append(parts, text[start:])
}

// corpusSections applies the gold generator's filters to the split:
// sections mentioning the reference parser's own sources are skipped
// (their text holds markers), as are blank ones. The header is the
// first line, trimmed; the content the rest.
func corpusSections(text string) []corpusSection {
	var out []corpusSection
	for i, s := range splitTranscript(text) {
		if strings.Contains(s, "editblock_coder.py") || strings.Contains(s, "test_editblock.py") || strings.TrimSpace(s) == "" {
			continue
		}
		header, content, _ := strings.Cut(s, "\n")
		out = append(out, corpusSection{Index: i, Header: strings.TrimSpace(header), Content: content})
	}
	return out
}

// goldItem is a block or shell block of the gold.
type goldItem struct {
	Shell                 bool
	Path, Search, Replace string // SEARCH/REPLACE block
	Text                  string // shell block
}

// goldSection is one entry of the gold: a section's blocks, or the
// error the reference raised on it.
type goldSection struct {
	Header string
	Items  []goldItem
	Err    bool
	Reply  string // error: the reply up to the line where parsing stopped
	Reason string // error: the reference's reason
}

const goldAts = "@@@@@@@@@@@@@@@@@@@@"

// parseGold reads the gold file: per section "\n\n@@@ <header> @...\n"
// then either blocks ("@@@ SEARCH: <path> @...", search text, a line of
// "@", replace text, "@@@ REPLACE @..."; or "@@@ SHELL @...", text,
// "@@@ ENDSHELL @...") or an error (the reply so far, "\n^^^ <reason>").
func parseGold(g string) ([]goldSection, error) {
	var out []goldSection
	pos := 0
	line := func() string { // the rest of the current line, consumed
		nl := strings.IndexByte(g[pos:], '\n')
		if nl < 0 {
			nl = len(g) - pos
		}
		s := g[pos : pos+nl]
		pos = min(len(g), pos+nl+1)
		return s
	}
	upTo := func(marker string, lineStart bool) (string, bool) {
		for from := pos; ; {
			i := strings.Index(g[from:], marker)
			if i < 0 {
				return "", false
			}
			at := from + i
			if !lineStart || at == pos || g[at-1] == '\n' {
				s := g[pos:at]
				pos = at + len(marker)
				return s, true
			}
			from = at + 1
		}
	}
	for pos < len(g) {
		if !strings.HasPrefix(g[pos:], "\n\n@@@ ") {
			return nil, fmt.Errorf("gold offset %d: want a section header", pos)
		}
		pos += len("\n\n@@@ ")
		h, ok := strings.CutSuffix(line(), " "+goldAts)
		if !ok {
			return nil, fmt.Errorf("gold offset %d: malformed section header", pos)
		}
		sec := goldSection{Header: h}
		for {
			rest := g[pos:]
			if strings.HasPrefix(rest, "@@@ SEARCH: ") {
				pos += len("@@@ SEARCH: ")
				path, ok := strings.CutSuffix(line(), " "+goldAts)
				if !ok {
					return nil, fmt.Errorf("gold offset %d: malformed SEARCH line", pos)
				}
				search, ok1 := upTo(goldAts+"\n", true)
				replace, ok2 := upTo("@@@ REPLACE "+goldAts+"\n", true)
				if !ok1 || !ok2 {
					return nil, fmt.Errorf("gold section %q: unterminated block", h)
				}
				sec.Items = append(sec.Items, goldItem{Path: path, Search: search, Replace: replace})
				continue
			}
			if strings.HasPrefix(rest, "@@@ SHELL "+goldAts+"\n") {
				pos += len("@@@ SHELL " + goldAts + "\n")
				text, ok := upTo("@@@ ENDSHELL "+goldAts+"\n", false)
				if !ok {
					return nil, fmt.Errorf("gold section %q: unterminated shell block", h)
				}
				sec.Items = append(sec.Items, goldItem{Shell: true, Text: text})
				continue
			}
			break
		}
		if len(sec.Items) == 0 {
			reply, ok := upTo("\n^^^ ", false)
			if !ok {
				return nil, fmt.Errorf("gold section %q: neither blocks nor an error", h)
			}
			sec.Err, sec.Reply, sec.Reason = true, reply, line()
		}
		out = append(out, sec)
	}
	return out, nil
}

// goldStop is the 1-based reply line where the reference stopped: the
// last line of the reply so far it printed.
func goldStop(reply string) int { return len(splitLines(reply)) }

// consistent reports whether gold entry g can belong to section s: the
// reply so far is a prefix of its content, or every text of its blocks
// stands in it.
func (g *goldSection) consistent(s corpusSection) bool {
	if g.Header != s.Header {
		return false
	}
	if g.Err {
		return strings.HasPrefix(s.Content, g.Reply)
	}
	for _, it := range g.Items {
		for _, t := range []string{it.Search, it.Replace, it.Text} {
			if !strings.Contains(s.Content, t) {
				return false
			}
		}
	}
	return true
}

// corpusItems lists our blocks and shell blocks in reply order, in the
// gold's terms.
func corpusItems(sp *srSplit) []goldItem {
	type at struct {
		line int
		item goldItem
	}
	var all []at
	for _, b := range sp.Blocks {
		all = append(all, at{b.Line, goldItem{Path: b.Path, Search: b.Search, Replace: b.Replace}})
	}
	for _, s := range sp.Shell {
		all = append(all, at{s.Line, goldItem{Shell: true, Text: s.Text}})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].line < all[j].line })
	items := make([]goldItem, len(all))
	for i, a := range all {
		items[i] = a.item
	}
	return items
}

// deviation is a place where we deliberately differ from the gold.
type deviation struct {
	Section, Block int // Block: first differing item, 1-based; 0 for the section as a whole
	Reason         string
}

// readDeviations reads "<section index> <block> <reason>" lines; "#"
// starts a comment.
func readDeviations(t *testing.T, path string) map[int]*deviation {
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("reading the list of deliberate deviations: %v", err)
	}
	defer f.Close()
	devs := map[int]*deviation{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		fields := strings.SplitN(l, " ", 3)
		if len(fields) < 3 {
			t.Fatalf("%s:%d: want \"<section index> <block> <reason>\"", path, n)
		}
		sec, err1 := strconv.Atoi(fields[0])
		blk, err2 := strconv.Atoi(fields[1])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: section index and block must be numbers", path, n)
		}
		if devs[sec] != nil {
			t.Fatalf("%s:%d: section %d listed twice", path, n, sec)
		}
		devs[sec] = &deviation{Section: sec, Block: blk, Reason: strings.TrimSpace(fields[2])}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return devs
}

// compareSection returns the first place where our reading of s
// differs from gold entry g (nil: the reference found nothing), as a
// block number (0: the section as a whole) and a description; ok when
// they agree.
func compareSection(s corpusSection, sp *srSplit, err error, g *goldSection) (block int, diff string, ok bool) {
	ours := corpusItems(sp)
	switch {
	case g == nil && err != nil:
		return 0, fmt.Sprintf("we fail (%v), the reference reads no block", err), false
	case g == nil && len(ours) > 0:
		return 1, fmt.Sprintf("we read %d blocks, the reference none", len(ours)), false
	case g == nil:
		return 0, "", true
	case g.Err && err == nil:
		return 0, fmt.Sprintf("the reference fails at reply line %d (%s), we do not", goldStop(g.Reply), g.Reason), false
	case g.Err:
		if want := goldStop(g.Reply); sp.Stop != want {
			return 0, fmt.Sprintf("the reference stops at reply line %d (%s), we at %d (%v)", want, g.Reason, sp.Stop, err), false
		}
		return 0, "", true
	case err != nil:
		return 0, fmt.Sprintf("we fail (%v), the reference reads %d blocks", err, len(g.Items)), false
	}
	for i := 0; i < max(len(ours), len(g.Items)); i++ {
		if i >= len(ours) {
			return i + 1, fmt.Sprintf("the reference reads %d blocks, we %d", len(g.Items), len(ours)), false
		}
		if i >= len(g.Items) {
			return i + 1, fmt.Sprintf("we read %d blocks, the reference %d", len(ours), len(g.Items)), false
		}
		if ours[i] != g.Items[i] {
			return i + 1, fmt.Sprintf("ours %s, the reference's %s", describeItem(ours[i]), describeItem(g.Items[i])), false
		}
	}
	return 0, "", true
}

func describeItem(it goldItem) string {
	if it.Shell {
		return fmt.Sprintf("shell %q", clip(it.Text))
	}
	return fmt.Sprintf("block %s %q -> %q", it.Path, clip(it.Search), clip(it.Replace))
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// loadCorpus reads the transcript and the gold, skipping the test when
// the corpus is not checked out beside the project (failing under CI).
func loadCorpus(tb testing.TB) (transcript, gold string) {
	tb.Helper()
	t, err1 := os.ReadFile(filepath.Join(corpusDir, corpusTranscript))
	g, err2 := os.ReadFile(filepath.Join(corpusDir, corpusGold))
	if err1 != nil || err2 != nil {
		msg := fmt.Sprintf("the acceptance corpus is missing: want %s beside the project (shared/ next to main/): %v",
			corpusDir, errors.Join(err1, err2))
		if os.Getenv("CI") != "" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	return string(t), string(g)
}

// TestCorpus parses every section of the acceptance transcript and
// compares it, block by block, with what the reference parser read;
// the only differences allowed are those listed in
// testdata/searchreplace/corpus-deviations.txt, and each listed one
// must still differ at the block it names.
func TestCorpus(t *testing.T) {
	transcript, goldText := loadCorpus(t)
	gold, err := parseGold(goldText)
	if err != nil {
		t.Fatal(err)
	}
	devs := readDeviations(t, corpusDeviations)
	sections := corpusSections(transcript)

	var nCompared, nBlocks, nShells, nErrors, nDeviations int
	j := 0 // next gold entry
	for _, s := range sections {
		sp, perr := splitSearchReplace(s.Content)
		var g *goldSection
		if j < len(gold) && gold[j].consistent(s) {
			g = &gold[j]
			j++
			nCompared++
			if g.Err {
				nErrors++
			}
			for _, it := range g.Items {
				if it.Shell {
					nShells++
				} else {
					nBlocks++
				}
			}
		}
		block, diff, ok := compareSection(s, sp, perr, g)
		d := devs[s.Index]
		switch {
		case ok && d != nil:
			t.Errorf("section %d (%q): listed as deviating at block %d (%s) but agrees with the reference; remove it from %s",
				s.Index, s.Header, d.Block, d.Reason, corpusDeviations)
		case !ok && d == nil:
			t.Errorf("section %d (%q) block %d: %s", s.Index, s.Header, block, diff)
		case !ok && d.Block != block:
			t.Errorf("section %d (%q): listed as deviating at block %d but differs first at block %d: %s",
				s.Index, s.Header, d.Block, block, diff)
		case !ok:
			nDeviations++
			t.Logf("deviation: section %d (%q) block %d: %s", s.Index, s.Header, block, diff)
		}
	}
	if j < len(gold) {
		t.Errorf("gold entry %d (%q) matches no section of the transcript", j, gold[j].Header)
	}
	parsed := map[int]bool{}
	for _, s := range sections {
		parsed[s.Index] = true
	}
	for _, d := range devs {
		if !parsed[d.Section] {
			t.Errorf("%s lists section %d, which is not a parsed section of the transcript", corpusDeviations, d.Section)
		}
	}
	t.Logf("corpus: %d sections parsed, %d compared with the gold: %d blocks, %d shell blocks, %d errors; %d listed deviations",
		len(sections), nCompared, nBlocks, nShells, nErrors, nDeviations)
}

// BenchmarkCorpus splits the whole transcript and reads every section.
func BenchmarkCorpus(b *testing.B) {
	transcript, _ := loadCorpus(b)
	b.SetBytes(int64(len(transcript)))
	for b.Loop() {
		for _, s := range corpusSections(transcript) {
			splitSearchReplace(s.Content) //nolint:errcheck // errors are data here
		}
	}
}
