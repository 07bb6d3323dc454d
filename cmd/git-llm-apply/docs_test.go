package main

import (
	"os"
	"strings"
	"testing"
)

// Every flag of apply, translate and check has its row in the README's
// flag table, so that a new flag cannot go undocumented.
func TestReadmeListsEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "| `-") {
			rows = append(rows, l)
		}
	}
	for _, cmd := range newApp(streams{}).Commands {
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
