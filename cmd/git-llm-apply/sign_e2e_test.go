package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// signingHome is a home directory whose global git config holds
// config ("key=value"), and an ed25519 key made there: its path and
// public line. It skips the test without ssh-keygen.
func signingHome(t *testing.T, config ...string) (home, key, pub string) {
	t.Helper()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("no ssh-keygen")
	}
	home = t.TempDir()
	key = filepath.Join(home, "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	b, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range config {
		k, v, _ := strings.Cut(strings.ReplaceAll(kv, "$KEY", key), "=")
		cmd := exec.Command("git", "config", "--file", filepath.Join(home, ".gitconfig"), k, v)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git config: %v\n%s", err, out)
		}
	}
	return home, key, strings.TrimSpace(string(b))
}

// runHome runs the binary in the repository with home as HOME.
func (r *repo) runHome(home string, args ...string) result {
	r.t.Helper()
	cmd := exec.Command(binary(), args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	return r.collect(cmd)
}

// signedBy says whether git verifies commit c as signed by pub.
func (r *repo) signedBy(c, pub string) bool {
	r.t.Helper()
	allowed := filepath.Join(r.t.TempDir(), "allowed")
	if err := os.WriteFile(allowed, []byte("* "+pub+"\n"), 0o644); err != nil {
		r.t.Fatal(err)
	}
	cmd := exec.Command("git", "-c", "gpg.ssh.allowedSignersFile="+allowed, "-c", "gpg.ssh.program=ssh-keygen", "verify-commit", c)
	cmd.Dir = r.dir
	return cmd.Run() == nil && strings.Contains(r.git("cat-file", "commit", c), "\ngpgsig -----BEGIN SSH SIGNATURE-----\n")
}

// apply and replay sign as git commit does: commit.gpgSign, -S,
// --gpg-sign=<key>, -S<key>, --no-gpg-sign; git verifies what they
// sign, and the report says the commit is signed.
func TestApplySigns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config []string
		args   []string
		signed bool
	}{
		{"commit.gpgSign", []string{"commit.gpgSign=true", "gpg.format=ssh", "user.signingKey=$KEY"}, nil, true},
		{"-S", []string{"gpg.format=ssh", "user.signingKey=$KEY"}, []string{"-S"}, true},
		{"--gpg-sign=key", []string{"gpg.format=ssh"}, []string{"--gpg-sign=$KEY"}, true},
		{"-Skey", []string{"gpg.format=ssh"}, []string{"-qS$KEY"}, true},
		{"--no-gpg-sign", []string{"commit.gpgSign=true", "gpg.format=ssh", "user.signingKey=$KEY"}, []string{"--no-gpg-sign"}, false},
		{"-S then --no-gpg-sign", []string{"gpg.format=ssh", "user.signingKey=$KEY"}, []string{"-S", "--no-gpg-sign"}, false},
		{"not asked", []string{"gpg.format=ssh", "user.signingKey=$KEY"}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, key, pub := signingHome(t, tc.config...)
			r := newRepo(t, map[string]string{"a.txt": "a\n"})
			before := r.snapshot()
			args := []string{"apply", "-b", "signed"}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "$KEY", key))
			}
			res := r.runHome(home, append(args, r.reply("r.md", "Change a.\n\n"+block("a.txt", "a\n", "b\n")))...)
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			if got := r.signedBy("signed", pub); got != tc.signed {
				t.Errorf("signed %v, want %v:\n%s", got, tc.signed, r.git("cat-file", "commit", "signed"))
			}
			if said := strings.Contains(res.stderr, " on signed, signed]"); said != (tc.signed && !strings.Contains(strings.Join(args, " "), "-q")) {
				t.Errorf("report:\n%s", res.stderr)
			}
			r.assertUntouched(before)
		})
	}
	home, _, pub := signingHome(t, "commit.gpgSign=true", "gpg.format=ssh", "user.signingKey=$KEY")
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	res := r.runHome(home, "apply", "--json", "-b", "signed", r.reply("r.md", "Change a.\n\n"+block("a.txt", "a\n", "b\n")))
	if res.code != 0 || !strings.Contains(res.stdout, `"signed": true,`) || !r.signedBy("signed", pub) {
		t.Errorf("--json: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// Signing asked for and impossible fails the run (exit 2, fatal:
// naming why) and records nothing: the branch is neither made nor
// moved, never an unsigned commit in place of a signed one.
func TestApplySigningFailsRecordsNothing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config []string
		args   []string
		says   string
	}{
		{"key missing", []string{"commit.gpgSign=true", "gpg.format=ssh", "user.signingKey=$KEY.gone"}, nil, "fatal: cannot sign the commit: ssh-keygen failed to sign"},
		{"no key", []string{"gpg.format=ssh"}, []string{"-S"}, "fatal: cannot sign the commit: user.signingKey needs to be set for ssh signing"},
		{"no gpg", []string{"commit.gpgSign=true", "gpg.program=/nonexistent/gpg"}, nil, "fatal: cannot sign the commit: /nonexistent/gpg failed to sign"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, _, _ := signingHome(t, tc.config...)
			r := newRepo(t, map[string]string{"a.txt": "a\n"})
			reply := r.reply("r.md", "Change a.\n\n"+block("a.txt", "a\n", "b\n"))
			objects := r.git("count-objects", "-v")
			for _, branch := range []string{"new", "old"} {
				if branch == "old" {
					r.git("branch", "old")
				}
				tip := r.git("for-each-ref", "refs/heads/"+branch)
				res := r.runHome(home, append(append([]string{"apply", "-b", branch}, tc.args...), reply)...)
				if res.code != exitUsage || !strings.Contains(res.stderr, tc.says) {
					t.Errorf("%s: exit %d\n%s", branch, res.code, res.stderr)
				}
				if got := r.git("for-each-ref", "refs/heads/"+branch); got != tip {
					t.Errorf("%s: the branch is %q, was %q", branch, got, tip)
				}
			}
			if out := r.git("count-objects", "-v"); out != objects {
				t.Errorf("objects written:\n%s\nwas\n%s", out, objects)
			}
		})
	}
}

// A signing program the repository's own config names is never run:
// the commit is signed with the default program, ssh-keygen.
func TestSigningProgramOfTheRepositoryNotRun(t *testing.T) {
	home, _, pub := signingHome(t, "commit.gpgSign=true", "gpg.format=ssh", "user.signingKey=$KEY")
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	marker := filepath.Join(t.TempDir(), "ran")
	prog := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho ran > "+marker+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"gpg.ssh.program", "gpg.program", "gpg.openpgp.program", "gpg.x509.program"} {
		r.git("config", k, prog)
	}
	res := r.runHome(home, "apply", "-b", "signed", r.reply("r.md", "Change a.\n\n"+block("a.txt", "a\n", "b\n")))
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the repository's program ran")
	}
	if !r.signedBy("signed", pub) {
		t.Errorf("not signed:\n%s", r.git("cat-file", "commit", "signed"))
	}
}
