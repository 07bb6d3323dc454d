package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
)

// ErrSign is a commit that was to be signed and could not be: nothing
// is recorded, never an unsigned commit in its place (SPEC section 3).
var ErrSign = errors.New("cannot sign the commit")

// Sign says whether commits are signed, as git commit's -S and
// --no-gpg-sign do over commit.gpgSign.
type Sign int

const (
	SignByConfig Sign = iota // commit.gpgSign decides
	SignAlways               // --gpg-sign, -S
	SignNever                // --no-gpg-sign
)

// signer signs commits as git does (gpg-interface.c): the commit
// without its signature is handed to the program of gpg.format, whose
// detached signature becomes the gpgsig header.
type signer struct {
	format  string // openpgp, x509 or ssh
	program string
	key     string
	dir     string // where the program runs: the top of the worktree
	home    string // for a key file's ~/
}

// newSigner returns the signer opts and the configuration ask for, nil
// when commits are not signed. The programs (gpg.program,
// gpg.<format>.program) come from protected configuration only
// (system, global, command line), as running a program the repository
// names would run the repository's code; which key and format, and
// whether to sign, are data, read at every level.
func (r *Repo) newSigner(opts WriteOptions, cfg *config.Values, committer Ident) (*signer, error) {
	switch opts.Sign {
	case SignNever:
		return nil, nil
	case SignByConfig:
		sign, err := cfg.Bool("commit.gpgsign", false)
		if err != nil {
			return nil, err
		}
		if !sign {
			return nil, nil
		}
	}
	format := "openpgp"
	if v, ok := cfg.Get("gpg.format"); ok {
		format = strings.ToLower(v)
	}
	home, _ := r.env("HOME")
	s := &signer{format: format, key: opts.SigningKey, dir: r.root, home: home}
	if s.dir == "" {
		s.dir = r.gitDir
	}
	if s.key == "" {
		s.key, _ = cfg.Get("user.signingkey")
	}
	protected, err := config.Read(config.Where{GitDir: r.gitDir, CommonDir: r.commonDir, Env: r.env, Protected: true})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSign, err)
	}
	program := func(keys ...string) string {
		p := ""
		for _, k := range keys {
			if v, ok := protected.Get(k); ok && v != "" {
				p = v
			}
		}
		return p
	}
	switch format {
	case "openpgp":
		// gpg.program is the older name of gpg.openpgp.program.
		s.program = program("gpg.program", "gpg.openpgp.program")
		if s.program == "" {
			s.program = "gpg"
		}
		if s.key == "" {
			// git signs with the committer's identity then.
			s.key = committer.Name + " <" + committer.Email + ">"
		}
	case "x509":
		if s.program = program("gpg.x509.program"); s.program == "" {
			s.program = "gpgsm"
		}
		if s.key == "" {
			s.key = committer.Name + " <" + committer.Email + ">"
		}
	case "ssh":
		if s.program = program("gpg.ssh.program"); s.program == "" {
			s.program = "ssh-keygen"
		}
		if s.key == "" {
			// git would ask gpg.ssh.defaultKeyCommand; not done here.
			return nil, fmt.Errorf("%w: user.signingKey needs to be set for ssh signing", ErrSign)
		}
	default:
		return nil, fmt.Errorf("%w: invalid value for 'gpg.format': '%s'", ErrSign, format)
	}
	return s, nil
}

// sign returns the detached signature of payload, its line ends LF.
func (s *signer) sign(ctx context.Context, payload []byte) ([]byte, error) {
	var sig []byte
	var err error
	if s.format == "ssh" {
		sig, err = s.signSSH(ctx, payload)
	} else {
		sig, err = s.signGPG(ctx, payload)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSign, err)
	}
	sig = bytes.ReplaceAll(sig, []byte("\r\n"), []byte("\n"))
	if len(sig) == 0 {
		return nil, fmt.Errorf("%w: %s gave no signature", ErrSign, s.program)
	}
	return sig, nil
}

// signGPG runs `<program> --status-fd=2 -bsau <key>` with the payload
// on standard input, as git does for openpgp and x509; the signature
// counts only when the status says SIG_CREATED at the start of a line.
func (s *signer) signGPG(ctx context.Context, payload []byte) ([]byte, error) {
	cmd := exec.CommandContext(ctx, s.program, "--status-fd=2", "-bsau", s.key)
	cmd.Dir = s.dir
	cmd.Stdin = bytes.NewReader(payload)
	var out, status bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &status
	err := cmd.Run()
	st := status.String()
	if err == nil && !strings.HasPrefix(st, "[GNUPG:] SIG_CREATED ") && !strings.Contains(st, "\n[GNUPG:] SIG_CREATED ") {
		err = errors.New("no SIG_CREATED in its status")
	}
	if err != nil {
		if st == "" {
			st = "(no gpg output)"
		}
		return nil, fmt.Errorf("%s failed to sign the data (%v):\n%s", s.program, err, strings.TrimRight(st, "\n"))
	}
	return out.Bytes(), nil
}

// signSSH writes the payload to a temporary file and runs `<program> -Y
// sign -n git -f <key> [-U] <file>`, reading the signature from
// <file>.sig. A key written `key::<public key>` (or, as git still
// takes it, starting "ssh-") is a public key whose private half is in
// the ssh agent (-U); anything else is the path of a key file, ~/
// expanded.
func (s *signer) signSSH(ctx context.Context, payload []byte) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "git-llm-apply-sign-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	keyFile, literal := s.key, false
	if k, ok := strings.CutPrefix(s.key, "key::"); ok || strings.HasPrefix(s.key, "ssh-") {
		if !ok {
			k = s.key
		}
		keyFile, literal = filepath.Join(tmp, ".git_signing_key_tmp"), true
		if err := os.WriteFile(keyFile, []byte(k), 0o600); err != nil {
			return nil, err
		}
	} else {
		keyFile = config.ExpandHome(keyFile, s.home)
	}
	buf := filepath.Join(tmp, ".git_signing_buffer_tmp")
	if err := os.WriteFile(buf, payload, 0o600); err != nil {
		return nil, err
	}
	args := []string{"-Y", "sign", "-n", "git", "-f", keyFile}
	if literal {
		args = append(args, "-U")
	}
	cmd := exec.CommandContext(ctx, s.program, append(args, buf)...)
	cmd.Dir = s.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "usage:") {
			msg = "ssh-keygen -Y sign is needed for ssh signing (available in openssh version 8.2p1+)"
		}
		return nil, fmt.Errorf("%s failed to sign the data (%v): %s", s.program, err, msg)
	}
	sig, err := os.ReadFile(buf + ".sig")
	if err != nil {
		return nil, fmt.Errorf("failed reading ssh signing data buffer: %v", err)
	}
	return sig, nil
}

// withSignature inserts sig into a commit object's data as git's
// commit.c does: a gpgsig header at the end of the headers, each line
// of the signature after the first on a line of its own that starts
// with a space.
func withSignature(data, sig []byte) []byte {
	at := bytes.Index(data, []byte("\n\n"))
	if at < 0 {
		at = len(data)
	} else {
		at++
	}
	var h bytes.Buffer
	for i, line := range bytes.SplitAfter(sig, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if i == 0 {
			h.WriteString("gpgsig")
		}
		h.WriteByte(' ')
		h.Write(line)
	}
	if !bytes.HasSuffix(h.Bytes(), []byte("\n")) {
		h.WriteByte('\n')
	}
	out := make([]byte, 0, len(data)+h.Len())
	out = append(out, data[:at]...)
	out = append(out, h.Bytes()...)
	return append(out, data[at:]...)
}
