package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/report"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Every flag of apply, translate and check has its row in the README's
// flag table, so that a new flag cannot go undocumented.
func TestReadmeListsEveryFlag(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "| `-") {
			rows = append(rows, l)
		}
	}
	for _, cmd := range newApp(streams{}, "").Commands {
		if cmd.Name != "apply" && cmd.Name != "translate" && cmd.Name != "check" {
			continue
		}
		for _, f := range cmd.Flags {
			found := false
			for _, n := range f.Names() {
				flag := "--" + n
				if len(n) == 1 {
					flag = "-" + n
				}
				for _, r := range rows {
					found = found || strings.Contains(r, "`"+flag+" ") || strings.Contains(r, "`"+flag+"`") || strings.Contains(r, "`"+flag+",")
				}
			}
			name := "--" + f.Names()[0]
			if !found {
				t.Errorf("%s %s has no row in the README's flag table", cmd.Name, name)
			}
		}
	}
}

// TestReadmeDescribesEveryJSONField: README's description of the --json
// document names every field the report can hold, the fields the issue
// added (closest's differ, rung and fuzz, elsewhere, suggestions)
// among them, so that the description cannot fall behind the code.
func TestReadmeDescribesEveryJSONField(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(readme), "The document, fields in this\n  order")
	if !ok {
		t.Fatal("README has no description of the --json document")
	}
	doc, _, _ = strings.Cut(doc, "\n\n  `closest`")
	var walk func(reflect.Type)
	seen := map[reflect.Type]bool{}
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" {
				walk(f.Type)
				continue
			}
			if !strings.Contains(doc, `"`+name+`"`) {
				t.Errorf("README's --json document does not name %q (%s.%s)", name, ty.Name(), f.Name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(report.Reply{}))
	for _, top := range []string{"replies", "ok", "interrupted", "cut", "unread", "error"} {
		if !strings.Contains(doc, `"`+top+`"`) {
			t.Errorf("README's --json document does not name %q", top)
		}
	}
}

// TestFormatSourcesExist: every docs/ page a format names as where it
// is described exists, with the heading its anchor names.
func TestFormatSourcesExist(t *testing.T) {
	t.Parallel()
	slug := func(heading string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
			switch {
			case r == ' ' || r == '-':
				b.WriteRune('-')
			case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_':
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	for _, f := range translate.Formats() {
		for _, src := range strings.Split(f.Seed, "; ") {
			if !strings.HasPrefix(src, "docs/") {
				continue
			}
			file, anchor, _ := strings.Cut(src, "#")
			data, err := os.ReadFile(filepath.Join("..", "..", file))
			if err != nil {
				t.Errorf("%s: %v", f.Name, err)
				continue
			}
			if anchor == "" {
				continue
			}
			found := false
			for _, l := range strings.Split(string(data), "\n") {
				if h := strings.TrimLeft(l, "#"); h != l && strings.HasPrefix(h, " ") && slug(h) == anchor {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %s has no heading for #%s", f.Name, file, anchor)
			}
		}
	}
}
