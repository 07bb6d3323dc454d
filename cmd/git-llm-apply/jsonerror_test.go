package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// jsonStop is the document --json writes for a run stopped before its
// report.
type jsonStop struct {
	Replies []json.RawMessage `json:"replies"`
	OK      *bool             `json:"ok"`
	Error   string            `json:"error"`
}

// TestJSONWhenTheRunStopsEarly: with --json, an error that stops a run
// before its report still gives a JSON document on standard output, and
// the exit status is the one without --json.
func TestJSONWhenTheRunStopsEarly(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	reply := r.reply("r.md", block("a.txt", "a\n", "A\n"))
	outside := t.TempDir()
	for _, tt := range []struct {
		name, dir string
		args      []string
		err       string
	}{
		{"no repository", outside, []string{reply}, "not a git repository"},
		{"unreadable reply", r.dir, []string{filepath.Join(outside, "missing.md")}, "cannot read reply"},
		{"bad fuzz", r.dir, []string{"--fuzz", "bogus", reply}, "fuzz"},
		{"bad size", r.dir, []string{"--max-reply-size", "lots", reply}, "--max-reply-size"},
		{"bad revision", r.dir, []string{"--base", "nope", reply}, "nope"},
		{"missing -C", r.dir, []string{"-C", "nowhere"}, "cannot change to"},
	} {
		for _, command := range []string{"apply", "check", "translate"} {
			args := append([]string{command}, tt.args...)
			if tt.args[0] == "-C" {
				args = append(tt.args, command, reply)
			}
			plain := r.runIn(tt.dir, "", args...)
			res := r.runIn(tt.dir, "", append(args, "--json")...)
			if plain.stdout != "" || plain.code != 2 {
				t.Errorf("%s, %s without --json: exit %d, stdout %q", tt.name, command, plain.code, plain.stdout)
			}
			var doc jsonStop
			if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
				t.Errorf("%s, %s: stdout is not JSON: %v\n%q", tt.name, command, err, res.stdout)
				continue
			}
			if res.code != plain.code || doc.OK == nil || *doc.OK || doc.Replies == nil || len(doc.Replies) != 0 ||
				!strings.Contains(doc.Error, tt.err) || !strings.Contains(res.stderr, tt.err) {
				t.Errorf("%s, %s: exit %d, stdout:\n%s\nstderr:\n%s", tt.name, command, res.code, res.stdout, res.stderr)
			}
		}
	}
	// A flag urfave/cli cannot parse stays plain text: whether --json
	// was asked is not known then.
	if res := r.run("check", "--json", "--bogus", reply); res.code != 2 || res.stdout != "" {
		t.Errorf("unknown flag: exit %d, stdout %q", res.code, res.stdout)
	}
	// A report that was written is not followed by a second document.
	res := r.run("check", "--json", r.reply("none.md", "No edit here.\n"))
	if res.code != 2 || strings.Count(res.stdout, `"replies"`) != 1 {
		t.Errorf("no edit: exit %d, stdout:\n%s", res.code, res.stdout)
	}
}

// TestJSONEscapesOnlyWhatJSONNeeds: <, > and & are written as they
// are, C1 characters still escaped.
func TestJSONEscapesOnlyWhatJSONNeeds(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	reply := r.reply("r.md", "Change a -> b & <c>\u0085.\n\n"+block("a.txt", "a\n", "A\n"))
	for _, command := range []string{"check", "translate", "apply"} {
		res := r.run(command, "--json", reply)
		if res.code != 0 {
			t.Fatalf("%s: exit %d\n%s", command, res.code, res.stderr)
		}
		if !strings.Contains(res.stdout, `"description": "Change a -> b & <c>\u0085."`) || strings.Contains(res.stdout, `\u003c`) {
			t.Errorf("%s: stdout:\n%s", command, res.stdout)
		}
		var doc struct {
			Replies []struct{ Description string }
		}
		if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || len(doc.Replies) != 1 ||
			doc.Replies[0].Description != "Change a -> b & <c>\u0085." {
			t.Errorf("%s: decodes to %+v (%v)", command, doc, err)
		}
	}
}

// A bad value names its option as git's parse-options does: `max-edits'
// (not Go's -max-edits), a letter as a switch, `b'.
func TestFlagErrorsNameLongFlags(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	for args, want := range map[string]string{
		"check --max-edits x r.md": "error: option `max-edits' expects a numerical value\n",
		"check --color=bogus r.md": "error: option `color' expects \"always\", \"auto\", or \"never\", not \"bogus\"\n",
		"apply -b":                 "error: switch `b' requires a value\n",
	} {
		res := r.run(strings.Fields(args)...)
		if res.code != 2 || !strings.Contains(res.stderr, want) {
			t.Errorf("%s: exit %d, want %q in:\n%s", args, res.code, want, res.stderr)
		}
	}
}
