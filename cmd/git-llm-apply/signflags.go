package main

import (
	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
)

// signChoice is what -S, --gpg-sign[=<key-id>] and --no-gpg-sign ask,
// the last given winning as in git commit; unset leaves it to
// commit.gpgSign (SPEC section 3).
type signChoice struct {
	mode gitops.Sign
	key  string
}

// signFlags are git commit's signing flags, which apply and replay
// take.
func signFlags() []cli.Flag {
	c := new(signChoice)
	return []cli.Flag{
		switchFlag{&cli.GenericFlag{Name: "gpg-sign", Aliases: []string{"S"}, Value: &signValue{dst: c, mode: gitops.SignAlways},
			Usage: "sign the commits as git commit -S does (gpg.format, user.signingKey); --gpg-sign=KEY-ID or -SKEY-ID signs with that key"}},
		switchFlag{&cli.GenericFlag{Name: "no-gpg-sign", Value: &signValue{dst: c, mode: gitops.SignNever},
			Usage: "do not sign the commits, whatever commit.gpgSign says"}},
	}
}

// signValue is the value of one of the signing flags: a switch to the
// flag parser, whose value, if any, follows an "=" (or the letter:
// -SKEYID).
type signValue struct {
	dst  *signChoice
	mode gitops.Sign
}

func (v *signValue) IsBoolFlag() bool { return true }
func (v *signValue) Get() any         { return *v.dst }
func (v *signValue) String() string   { return "" }

// optionalArg is the placeholder of the value the flag may take.
func (v *signValue) optionalArg() string {
	if v.mode == gitops.SignNever {
		return ""
	}
	return "key-id"
}

func (v *signValue) Set(s string) error {
	if v.mode == gitops.SignNever {
		if s != "true" {
			return errTakesNoValue
		}
		*v.dst = signChoice{mode: gitops.SignNever}
		return nil
	}
	if s == "true" { // the flag alone
		s = ""
	}
	*v.dst = signChoice{mode: gitops.SignAlways, key: s}
	return nil
}

// readSign reads the signing flags of cmd.
func readSign(cmd *cli.Command) signChoice {
	if c, ok := cmd.Value("gpg-sign").(signChoice); ok {
		return c
	}
	return signChoice{}
}
