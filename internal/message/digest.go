package message

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// ReplyTrailer is the key of the commit trailer that carries a reply's
// digest (SPEC section 3).
const ReplyTrailer = "LLM-Reply"

// digestLen is the length of a reply digest in hex digits: 64 bits of
// SHA-256. A digest is compared only with those of a branch's last
// replyHistory commits, so two different replies of one branch share
// one by chance once in 2^57; and a reply made to match a given
// commit's digest, to be skipped as already recorded, costs 2^64
// hashes. Longer would make the trailer harder to read and type.
const digestLen = 16

// ReplyDigest is the digest of what a reply's edits do (SPEC section
// 3): every field of each operation that decides what it finds, where
// and what it writes, in order, length-prefixed so that no two lists of
// operations encode alike. Left out are the reply's prose, the reply
// lines, comments and tool-call numbers, so that a retry worded
// otherwise is the same reply; and the format's name, which only
// names the notation (a SEARCH/REPLACE block and a fenced one with the
// same lines are the same edit).
func ReplyDigest(ops []translate.Operation) string {
	h := sha256.New()
	// The encoding goes through a buffer: a whole file of a million
	// short lines is two million tiny writes otherwise, each paying
	// the hash's call and, for a string, a copy of its own.
	buf := make([]byte, 0, 64<<10)
	flush := func() {
		h.Write(buf)
		buf = buf[:0]
	}
	num := func(n int) {
		if len(buf)+binary.MaxVarintLen64 > cap(buf) {
			flush()
		}
		buf = binary.AppendVarint(buf, int64(n))
	}
	str := func(s string) {
		num(len(s))
		if len(buf)+len(s) > cap(buf) {
			flush()
			if len(s) > cap(buf) {
				io.WriteString(h, s)
				return
			}
		}
		buf = append(buf, s...)
	}
	lines := func(ls []string) {
		num(len(ls))
		for _, l := range ls {
			str(strings.TrimSuffix(l, "\r"))
		}
	}
	flag := func(b bool) {
		if b {
			num(1)
		} else {
			num(0)
		}
	}
	num(len(ops))
	for i := range ops {
		op := &ops[i]
		num(int(op.Kind))
		str(op.Path)
		str(op.NewPath)
		lines(op.Scope)
		lines(op.Before)
		lines(op.Old)
		lines(op.After)
		lines(op.New)
		str(op.Content) // whole, not split: a long file's lines would each cost a string
		num(op.LineHint)
		num(int(op.Block))
		flag(op.FirstMatch)
		flag(op.Append)
		flag(op.Overwrite)
		flag(op.AtEOF)
		lines(op.ProseNames)
		flag(op.Executable)
		flag(op.Recursive)
		num(int(op.Where))
		num(int(op.Indent))
		num(op.IndentFrom)
		str(op.Language)
		flag(op.TrimBlank)
		flag(op.Ordered)
		num(op.Group)
		str(op.OldText)
		str(op.NewText)
		num(op.Count)
		flag(op.All)
		num(op.InsertAfter)
		str(op.Root)
	}
	flush()
	return digestHex(h)
}

func digestHex(h hash.Hash) string {
	return hex.EncodeToString(h.Sum(nil))[:digestLen]
}

// ReplyTrailerLine is the trailer line of a reply's digest
// ("LLM-Reply: <digest>").
func ReplyTrailerLine(digest string) string { return ReplyTrailer + ": " + digest }
