// Package golden reads and writes the golden cases of the format
// readers, testdata/<format>/<case>.txtar. The engine's golden test
// runs them and rewrites them under -update; the translate tests read
// their replies. Only tests import it.
//
// A case is one txtar archive (golang.org/x/tools/txtar):
//
//	what the case shows, if anything (the archive's comment)
//	-- reply.md --
//	the reply
//	-- options --
//	format: auto      (optional: format, fuzz, partial as "key: value")
//	-- mode --
//	100755 in/deploy.sh
//	noeol in/greet.py
//	-- in/<path> --
//	a file before the reply, one section each
//	-- out/<path> --
//	the whole tree after the reply (no out/ section when it changes nothing)
//	-- report.txt --
//	the engine's account of the reply
//
// The mode section, present when needed, says per line what a
// section's name and bytes cannot, an attribute and a section name:
//
//   - "100755 in/<path>" or "100755 out/<path>": the file is executable.
//   - "noeol <section>": the content has no final newline. txtar ends
//     every section with one; the reader takes it off again.
//   - "quote <section>": every line of the content is prefixed with
//     ">", because a line of it would read as a section marker
//     ("-- name --"); the reader takes the prefixes off.
//
// Every other byte (CRLF, lone CR, a BOM, invalid UTF-8, NUL) stands as
// it is. Write refuses what it cannot write back exactly, such as a
// path ending in a space, rather than change it.
package golden

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/txtar"
)

// File is a file of a case's tree.
type File struct {
	Data string
	Exec bool
}

// Case is one golden case.
type Case struct {
	Comment string // what the case shows; ends with a newline when set
	Reply   string
	Options string          // the options section, "" when absent
	In      map[string]File // the files before the reply, by path
	Out     map[string]File // the files after the reply; empty when it changes nothing
	Report  string
}

// Section names.
const (
	replyName   = "reply.md"
	optionsName = "options"
	modeName    = "mode"
	reportName  = "report.txt"
	inPrefix    = "in/"
	outPrefix   = "out/"
)

// Attributes of the mode section.
const (
	attrExec  = "100755"
	attrNoEOL = "noeol"
	attrQuote = "quote"
)

// Files returns the case files of a format directory, sorted.
func Files(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, "*.txtar"))
}

// Name is the case's name: the file name without ".txtar".
func Name(file string) string {
	return strings.TrimSuffix(filepath.Base(file), ".txtar")
}

// Read reads the case file.
func Read(file string) (*Case, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return c, nil
}

// Write writes c to file, refusing (before writing) a case that would
// not read back as it is.
func Write(file string, c *Case) error {
	data, err := c.Format()
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return os.WriteFile(file, data, 0o644)
}

// Parse reads a case from the bytes of its archive. Sections it does
// not know, a section twice, a mode line it cannot read or one naming
// no section are errors: a misspelt section must not pass unnoticed.
func Parse(data []byte) (*Case, error) {
	ar := txtar.Parse(data)
	c := &Case{Comment: string(ar.Comment), In: map[string]File{}, Out: map[string]File{}}
	sections := map[string]string{}
	var names []string
	for _, f := range ar.Files {
		if _, dup := sections[f.Name]; dup {
			return nil, fmt.Errorf("golden: section %q twice", f.Name)
		}
		sections[f.Name] = string(f.Data)
		names = append(names, f.Name)
	}
	attrs := map[string]map[string]bool{}
	if mode, ok := sections[modeName]; ok {
		for _, l := range strings.Split(strings.TrimSuffix(mode, "\n"), "\n") {
			attr, name, _ := strings.Cut(l, " ")
			if _, ok := sections[name]; !ok || name == modeName {
				return nil, fmt.Errorf("golden: mode line %q names no section", l)
			}
			switch {
			case attr == attrExec && (strings.HasPrefix(name, inPrefix) || strings.HasPrefix(name, outPrefix)),
				attr == attrNoEOL, attr == attrQuote:
			default:
				return nil, fmt.Errorf("golden: mode line %q: want \"100755 in/<path>\", \"noeol <section>\" or \"quote <section>\"", l)
			}
			if attrs[name] == nil {
				attrs[name] = map[string]bool{}
			}
			attrs[name][attr] = true
		}
	}
	for _, name := range names {
		data := sections[name]
		if attrs[name][attrNoEOL] {
			if !strings.HasSuffix(data, "\n") {
				return nil, fmt.Errorf("golden: section %q is empty but marked noeol", name)
			}
			data = strings.TrimSuffix(data, "\n")
		}
		if attrs[name][attrQuote] {
			var err error
			if data, err = unquote(data); err != nil {
				return nil, fmt.Errorf("golden: section %q: %w", name, err)
			}
		}
		switch {
		case name == replyName:
			c.Reply = data
		case name == optionsName:
			c.Options = data
		case name == reportName:
			c.Report = data
		case name == modeName:
		case strings.HasPrefix(name, inPrefix):
			c.In[strings.TrimPrefix(name, inPrefix)] = File{data, attrs[name][attrExec]}
		case strings.HasPrefix(name, outPrefix):
			c.Out[strings.TrimPrefix(name, outPrefix)] = File{data, attrs[name][attrExec]}
		default:
			return nil, fmt.Errorf("golden: unknown section %q", name)
		}
	}
	return c, nil
}

// Format writes c as its archive: the sections in the order of the
// package comment, the files sorted by path. It fails when the archive
// would not read back as c, so that nothing is written that loses a
// byte.
func (c *Case) Format() ([]byte, error) {
	ar := &txtar.Archive{Comment: []byte(c.Comment)}
	if c.Comment != "" && !strings.HasSuffix(c.Comment, "\n") {
		ar.Comment = append(ar.Comment, '\n')
	}
	if hasMarker(string(ar.Comment)) {
		return nil, errors.New("golden: the comment holds a line that reads as a section marker")
	}
	var mode []string
	add := func(name, data string, exec bool) {
		if exec {
			mode = append(mode, attrExec+" "+name)
		}
		if hasMarker(data) {
			data = quote(data)
			mode = append(mode, attrQuote+" "+name)
		}
		if data != "" && !strings.HasSuffix(data, "\n") {
			mode = append(mode, attrNoEOL+" "+name)
		}
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
	}
	add(replyName, c.Reply, false)
	if c.Options != "" {
		add(optionsName, c.Options, false)
	}
	for _, tree := range []struct {
		prefix string
		files  map[string]File
	}{{inPrefix, c.In}, {outPrefix, c.Out}} {
		for _, p := range sortedKeys(tree.files) {
			add(tree.prefix+p, tree.files[p].Data, tree.files[p].Exec)
		}
	}
	add(reportName, c.Report, false)
	if len(mode) > 0 {
		sort.Strings(mode)
		modeFile := txtar.File{Name: modeName, Data: []byte(strings.Join(mode, "\n") + "\n")}
		n := 1
		if c.Options != "" {
			n = 2
		}
		ar.Files = append(ar.Files[:n], append([]txtar.File{modeFile}, ar.Files[n:]...)...)
	}
	data := txtar.Format(ar)
	back, err := Parse(data)
	if err != nil {
		return nil, err
	}
	if !back.Equal(&Case{Comment: string(ar.Comment), Reply: c.Reply, Options: c.Options, In: c.In, Out: c.Out, Report: c.Report}) {
		return nil, errors.New("golden: the case would not read back as it is (a path ending in a space, or holding a line break?)")
	}
	return data, nil
}

// Equal reports whether c and d hold the same bytes, an absent tree
// the same as an empty one.
func (c *Case) Equal(d *Case) bool {
	return c.Comment == d.Comment && c.Reply == d.Reply && c.Options == d.Options && c.Report == d.Report &&
		sameTree(c.In, d.In) && sameTree(c.Out, d.Out)
}

func sameTree(a, b map[string]File) bool {
	if len(a) != len(b) {
		return false
	}
	for p, f := range a {
		if g, ok := b[p]; !ok || g != f {
			return false
		}
	}
	return true
}

func sortedKeys(files map[string]File) []string {
	var keys []string
	for p := range files {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	return keys
}

// hasMarker reports whether a line of data would read as a txtar
// section marker: "-- name --", also before a CRLF.
func hasMarker(data string) bool {
	for _, l := range strings.SplitAfter(data, "\n") {
		l = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		if len(l) >= 6 && strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && strings.TrimSpace(l[3:len(l)-3]) != "" {
			return true
		}
	}
	return false
}

// quote prefixes every line of data with ">".
func quote(data string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(data, "\n") {
		if l != "" {
			b.WriteString(">" + l)
		}
	}
	return b.String()
}

// unquote takes off the ">" quote put before every line.
func unquote(data string) (string, error) {
	var b bytes.Buffer
	for _, l := range strings.SplitAfter(data, "\n") {
		if l == "" {
			continue
		}
		if !strings.HasPrefix(l, ">") {
			return "", fmt.Errorf("quoted line %q does not start with >", l)
		}
		b.WriteString(l[1:])
	}
	return b.String(), nil
}
