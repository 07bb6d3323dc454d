package gitops

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// sshKey makes an ed25519 key without a passphrase and returns the
// path of its private half and its public line.
func sshKey(t *testing.T) (key, pub string) {
	t.Helper()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("no ssh-keygen")
	}
	key = filepath.Join(t.TempDir(), "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	b, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return key, strings.TrimSpace(string(b))
}

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// verified checks with git that commit c is signed by pub.
func (tr *testRepo) verified(c, pub string) {
	tr.t.Helper()
	allowed := filepath.Join(tr.t.TempDir(), "allowed")
	if err := os.WriteFile(allowed, []byte("* "+pub+"\n"), 0o644); err != nil {
		tr.t.Fatal(err)
	}
	// (git itself takes gpg.ssh.program from the repository's config.)
	tr.git("-c", "gpg.ssh.allowedSignersFile="+allowed, "-c", "gpg.ssh.program=ssh-keygen", "verify-commit", c)
	if raw := tr.git("cat-file", "commit", c); !strings.Contains(raw, "\ngpgsig -----BEGIN SSH SIGNATURE-----\n ") {
		tr.t.Errorf("no gpgsig header:\n%s", raw)
	}
}

// Commits are signed with an ssh key as git signs them: git verifies
// the signature, and the commit is byte for byte the one git
// commit-tree -S makes of the same tree, parent and message (ed25519
// signatures are deterministic). Whether to sign follows
// commit.gpgSign, and -S and --no-gpg-sign over it.
func TestSignSSH(t *testing.T) {
	t.Parallel()
	key, pub := sshKey(t)
	for _, tc := range []struct {
		name   string
		config []string // global
		opts   WriteOptions
		signed bool
	}{
		{"commit.gpgSign", []string{"commit.gpgSign=true", "gpg.format=ssh", "user.signingKey=" + key}, WriteOptions{}, true},
		{"--gpg-sign", []string{"gpg.format=ssh", "user.signingKey=" + key}, WriteOptions{Sign: SignAlways}, true},
		{"--gpg-sign=<key>", []string{"gpg.format=ssh"}, WriteOptions{Sign: SignAlways, SigningKey: key}, true},
		{"the key under ~/", []string{"commit.gpgSign=true", "gpg.format=ssh", "user.signingKey=~/key"}, WriteOptions{}, true},
		{"--no-gpg-sign", []string{"commit.gpgSign=true", "gpg.format=ssh", "user.signingKey=" + key}, WriteOptions{Sign: SignNever}, false},
		{"not asked", []string{"gpg.format=ssh", "user.signingKey=" + key}, WriteOptions{}, false},
		{"commit.gpgSign false", []string{"commit.gpgSign=false", "gpg.format=ssh", "user.signingKey=" + key}, WriteOptions{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newFixture(t)
			if err := os.Link(key, filepath.Join(tr.home, "key")); err != nil {
				t.Fatal(err)
			}
			for _, kv := range tc.config {
				k, v, _ := strings.Cut(kv, "=")
				tr.git("config", "--global", k, v)
			}
			r := tr.open(tr.dir)
			head := tr.git("rev-parse", "HEAD")
			opts := tc.opts
			opts.Branch, opts.Parent = "signed", head
			w := newWriter(t, r, opts)
			change := []patch.FileChange{modify("a.txt", "signed\n", reg)}
			c, err := w.Record(context.Background(), change, "Sign it")
			if err != nil {
				t.Fatal(err)
			}
			finish(t, w)
			if w.Signed() != tc.signed {
				t.Errorf("Signed() = %v", w.Signed())
			}
			raw := tr.git("cat-file", "commit", c)
			if !tc.signed {
				if strings.Contains(raw, "gpgsig") {
					t.Errorf("signed:\n%s", raw)
				}
				return
			}
			tr.verified(c, pub)
			tree := tr.git("rev-parse", c+"^{tree}")
			byGit := tr.gitEnv(tr.dir, nil, "Sign it\n", "-c", "gpg.format=ssh", "-c", "user.signingKey="+key, "commit-tree", "-S", tree, "-p", head)
			if byGit != c {
				t.Errorf("commit %s, git commit-tree -S makes %s:\n%s\n---\n%s", c, byGit, raw, tr.git("cat-file", "commit", byGit))
			}
			tr.fsck()
		})
	}
}

// Signing asked for and impossible fails, and nothing is recorded: no
// unsigned commit, no branch, no object.
func TestSignFailsRecordsNothing(t *testing.T) {
	t.Parallel()
	key, _ := sshKey(t)
	fails := script(t, "echo 'signing refused' >&2\nexit 1\n")
	noStatus := script(t, "cat >/dev/null\necho sig\n")
	for _, tc := range []struct {
		name    string
		config  []string
		atStart bool // NewBranchWriter refuses, before any reply
		says    string
	}{
		{"key missing", []string{"gpg.format=ssh", "user.signingKey=" + key + ".gone"}, false, "ssh-keygen failed to sign"},
		{"no key for ssh", []string{"gpg.format=ssh"}, true, "user.signingKey needs to be set for ssh signing"},
		{"unknown format", []string{"gpg.format=pgp", "user.signingKey=" + key}, true, "invalid value for 'gpg.format': 'pgp'"},
		{"program fails", []string{"gpg.format=ssh", "user.signingKey=" + key, "gpg.ssh.program=" + fails}, false, "signing refused"},
		{"gpg without SIG_CREATED", []string{"gpg.program=" + noStatus}, false, "no SIG_CREATED"},
		{"no gpg", []string{"gpg.program=/nonexistent/gpg"}, false, "/nonexistent/gpg failed to sign"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newFixture(t)
			tr.git("config", "--global", "commit.gpgSign", "true")
			for _, kv := range tc.config {
				k, v, _ := strings.Cut(kv, "=")
				tr.git("config", "--global", k, v)
			}
			objects := tr.git("count-objects", "-v")
			r := tr.open(tr.dir)
			w, err := r.NewBranchWriter(WriteOptions{Branch: "signed", Parent: tr.git("rev-parse", "HEAD")})
			if err == nil {
				defer w.Close()
				if tc.atStart {
					t.Fatal("NewBranchWriter took it")
				}
				_, err = w.Record(context.Background(), []patch.FileChange{modify("a.txt", "signed\n", reg)}, "Sign it")
				if len(w.Commits()) != 0 {
					t.Errorf("commits %v", w.Commits())
				}
				w.Close()
			}
			if !errors.Is(err, ErrSign) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %v, want ErrSign saying %q", err, tc.says)
			}
			if refs := tr.git("for-each-ref", "refs/heads/signed"); refs != "" {
				t.Errorf("branch made: %s", refs)
			}
			if got := tr.git("count-objects", "-v"); got != objects {
				t.Errorf("objects written:\n%s\nwas\n%s", got, objects)
			}
		})
	}
}

// The signing program is taken from system, global and command-line
// configuration only: one the repository's own config names is never
// run (it would run the repository's code), and the default signs.
// The same program set globally does run.
func TestSigningProgramNotFromRepository(t *testing.T) {
	t.Parallel()
	key, pub := sshKey(t)
	marker := filepath.Join(t.TempDir(), "ran")
	prog := script(t, "echo ran >> "+marker+"\nexec ssh-keygen \"$@\"\n")
	for _, global := range []bool{false, true} {
		tr := newFixture(t)
		tr.git("config", "--global", "commit.gpgSign", "true")
		tr.git("config", "--global", "gpg.format", "ssh")
		tr.git("config", "--global", "user.signingKey", key)
		for _, k := range []string{"gpg.ssh.program", "gpg.program", "gpg.openpgp.program"} {
			tr.git("config", k, prog) // the repository's own
		}
		if global {
			tr.git("config", "--global", "gpg.ssh.program", prog)
		}
		r := tr.open(tr.dir)
		w := newWriter(t, r, WriteOptions{Branch: "signed", Parent: tr.git("rev-parse", "HEAD")})
		c, err := w.Record(context.Background(), []patch.FileChange{modify("a.txt", "signed\n", reg)}, "Sign it")
		if err != nil {
			t.Fatal(err)
		}
		finish(t, w)
		if _, err := os.Stat(marker); (err == nil) != global {
			t.Errorf("global %v: the program ran: %v", global, err == nil)
		}
		tr.verified(c, pub)
	}
}

// openpgp runs the program as git does, `--status-fd=2 -bsau <key>`
// with the commit on standard input, the key the committer's identity
// when user.signingKey is not set; the signature becomes the gpgsig
// header, each line after the first starting with a space.
func TestSignOpenPGPAsGit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gpg := script(t, `printf '%s\n' "$@" > `+dir+`/args
cat > `+dir+`/payload
echo '[GNUPG:] KEY_CONSIDERED X 0' >&2
echo '[GNUPG:] SIG_CREATED D 22 8 00 1700000100 X' >&2
printf -- '-----BEGIN PGP SIGNATURE-----\r\n\r\nabc\r\n-----END PGP SIGNATURE-----\r\n'
`)
	for _, tc := range []struct {
		name, key, opt, want string
	}{
		{"committer", "", "", committerName + " <" + committerEmail + ">"},
		{"user.signingKey", "ABCD1234", "", "ABCD1234"},
		{"--gpg-sign=<keyid>", "ABCD1234", "FEED", "FEED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newFixture(t)
			tr.git("config", "--global", "gpg.program", gpg)
			if tc.key != "" {
				tr.git("config", "user.signingKey", tc.key) // a key is data: any level
			}
			r := tr.open(tr.dir)
			head := tr.git("rev-parse", "HEAD")
			w := newWriter(t, r, WriteOptions{Branch: "signed", Parent: head, Sign: SignAlways, SigningKey: tc.opt})
			c, err := w.Record(context.Background(), []patch.FileChange{modify("a.txt", "signed\n", reg)}, "Sign it")
			if err != nil {
				t.Fatal(err)
			}
			finish(t, w)
			args, _ := os.ReadFile(filepath.Join(dir, "args"))
			if want := "--status-fd=2\n-bsau\n" + tc.want + "\n"; string(args) != want {
				t.Errorf("args %q, want %q", args, want)
			}
			raw := tr.git("cat-file", "commit", c)
			payload, _ := os.ReadFile(filepath.Join(dir, "payload"))
			unsigned := strings.Replace(raw+"\n", "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n", "", 1)
			if string(payload) != unsigned || unsigned == raw+"\n" {
				t.Errorf("payload:\n%s\ncommit:\n%s", payload, raw)
			}
			if !strings.Contains(raw, "\ncommitter "+committerName) || !strings.HasPrefix(unsigned, "tree ") {
				t.Errorf("commit:\n%s", raw)
			}
			tr.fsck()
		})
	}
}

// withSignature puts the header where git's commit.c does: after the
// last header line, before the blank line and message.
func TestWithSignature(t *testing.T) {
	t.Parallel()
	data := []byte("tree t\nauthor a\ncommitter c\n\nsubject\n\nbody\n")
	got := string(withSignature(data, []byte("L1\n\nL3\n")))
	want := "tree t\nauthor a\ncommitter c\ngpgsig L1\n \n L3\n\nsubject\n\nbody\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := string(withSignature([]byte("tree t\n"), []byte("S"))); got != "tree t\ngpgsig S\n" {
		t.Errorf("no message: %q", got)
	}
}
