package translate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestShellOps(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string // "delete P", "delete -r P", "rename A B" with their line
		warns      int
	}{
		{"git rm", "git rm old.txt", []string{"2 delete old.txt"}, 0},
		{"git rm -r and --", "git rm -r -- build", []string{"2 delete -r build"}, 0},
		{"git rm --cached -f", "git rm --cached -f a b", []string{"2 delete a", "2 delete b"}, 0},
		{"git mv", "git mv src/a.py src/b.py", []string{"2 rename src/a.py src/b.py"}, 0},
		{"mv into a directory", "mv a.py lib/", []string{"2 rename a.py lib/a.py"}, 0},
		{"rm -rf", "rm -rf dist", []string{"2 delete -r dist"}, 0},
		{"prompt and comment", "$ rm a.txt # old", []string{"2 delete a.txt"}, 0},
		{"chained", "git mv a b && git rm c; echo done", []string{"2 rename a b", "2 delete c"}, 0},
		{"quoted names", `git rm "my file.txt" 'it''s'`, []string{"2 delete my file.txt", "2 delete its"}, 0},
		{"other commands ignored", "python main.py\nls -la", nil, 0},
		{"glob refused", "rm *.pyc", nil, 1},
		{"variable refused", "rm $FILE", nil, 1},
		{"unknown option refused", "rm --interactive=never a", nil, 1},
		{"mv with three paths refused", "mv a b c", nil, 1},
		{"second line", "echo hi\ngit rm x", []string{"3 delete x"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ops, warns := ShellOps([]Shell{{Line: 1, Lang: "bash", Text: c.text + "\n"}})
			var got []string
			for _, o := range ops {
				switch {
				case o.Kind == Rename:
					got = append(got, fmt.Sprintf("%d rename %s %s", o.Line, o.Path, o.NewPath))
				case o.Recursive:
					got = append(got, fmt.Sprintf("%d delete -r %s", o.Line, o.Path))
				default:
					got = append(got, fmt.Sprintf("%d delete %s", o.Line, o.Path))
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("ops %q, want %q", got, c.want)
			}
			if len(warns) != c.warns {
				t.Errorf("warnings %v, want %d", warns, c.warns)
			}
		})
	}
}

func TestParseShellOps(t *testing.T) {
	reply := "Drop the old module.\n\n```bash\ngit rm old.py\n```\n\nThen run:\n\n```sh\npython main.py\n```\n"
	if _, err := Parse(reply, ParseOptions{Format: "auto"}); !errors.Is(err, ErrNoEdits) {
		t.Fatalf("without shell ops: %v", err)
	}
	r, err := Parse(reply, ParseOptions{Format: "auto", ShellOps: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Format != "shell" || len(r.Ops) != 1 || r.Ops[0].Kind != Delete || r.Ops[0].Path != "old.py" || r.Ops[0].Line != 4 || len(r.Shell) != 2 {
		t.Fatalf("reply %+v", r)
	}
	if s, _ := Describe(r); s != "Drop the old module." {
		t.Errorf("subject %q", s)
	}
	mixed := "Rename and edit.\n\n```bash\ngit mv a.py b.py\n```\n\n" + srSample
	r, err = Parse(mixed, ParseOptions{Format: "auto", ShellOps: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Ops) != 2 || r.Ops[0].Kind != Rename || r.Ops[1].Kind != Edit {
		t.Fatalf("mixed ops %+v", r.Ops)
	}
	if _, err := Parse("Just run:\n\n```bash\nmake\n```\n", ParseOptions{ShellOps: true}); !errors.Is(err, ErrNoEdits) {
		t.Errorf("no file command: %v", err)
	}
}

func FuzzShellOps(f *testing.F) {
	f.Add("git rm -r a && mv 'b c' d/ # x\n$ rm \"e\\\"f\"")
	f.Add("rm *; git mv a b c || echo")
	f.Fuzz(func(t *testing.T, text string) {
		ops, warns := ShellOps([]Shell{{Line: 3, Lang: "sh", Text: text}})
		lines := strings.Count(text, "\n") + 1
		for _, o := range ops {
			if o.Line < 4 || o.Line > 3+lines || o.Path == "" || (o.Kind == Rename && o.NewPath == "") {
				t.Fatalf("op %+v", o)
			}
		}
		for _, w := range warns {
			if w.Line < 4 || w.Line > 3+lines {
				t.Fatalf("warning %+v", w)
			}
		}
	})
}
