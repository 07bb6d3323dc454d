package gitops

// Commit and tag objects, decoded and encoded here rather than with
// go-git's object package, which brings OpenPGP (and its package
// initialisation) into every run for signatures gitops never checks.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// commit is what gitops reads of a commit object: its headers as
// written (author and committer lines unparsed) and its message.
type commit struct {
	Hash      oid.ID
	TreeHash  oid.ID
	Parents   []oid.ID
	Author    string // "Name <email> 1700000000 +0100"
	Committer string
	Encoding  string // "" when the header is absent (UTF-8)
	Message   string
}

// headers calls fn with each header line of a commit or tag body
// (name and value) and returns the message after the blank line. A
// header continued on lines starting with a space (gpgsig, mergetag)
// is given to fn as its first line only: gitops reads none of them.
func headers(data []byte, fn func(name, value string)) string {
	for len(data) > 0 {
		line := data
		rest := []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, rest = data[:i], data[i+1:]
		}
		data = rest
		if len(line) == 0 {
			return string(data)
		}
		if line[0] == ' ' {
			continue // continuation of the header before
		}
		name, value, _ := bytes.Cut(line, []byte{' '})
		fn(string(name), string(value))
	}
	return ""
}

// parseCommit decodes the body of commit id. Like git's parser it
// requires the tree header first and parents after it, each a full
// id; other headers are read wherever they are.
func parseCommit(id oid.ID, data []byte) (*commit, error) {
	if !bytes.HasPrefix(data, []byte("tree ")) {
		// git's parse_commit_buffer: the body starts with the tree
		// header, not a line that would read as a continuation.
		return nil, fmt.Errorf("commit %s: no tree header", id)
	}
	c := &commit{Hash: id}
	var err error
	n := 0
	c.Message = headers(data, func(name, value string) {
		n++
		switch {
		case err != nil:
		case name == "tree":
			if n != 1 || !oid.IsHex(value) {
				err = fmt.Errorf("commit %s: bad tree header", id)
			}
			c.TreeHash = oid.FromHex(value)
		case n == 1:
			err = fmt.Errorf("commit %s: no tree header", id)
		case name == "parent":
			if n != len(c.Parents)+2 || !oid.IsHex(value) {
				err = fmt.Errorf("commit %s: bad parent header", id)
			}
			c.Parents = append(c.Parents, oid.FromHex(value))
		case name == "author" && c.Author == "":
			c.Author = value
		case name == "committer" && c.Committer == "":
			c.Committer = value
		case name == "encoding":
			c.Encoding = value
		}
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("commit %s: no tree header", id)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// tagTarget decodes the object header of tag id's body: the id and
// type of what it points at.
func tagTarget(id oid.ID, data []byte) (oid.ID, oid.Type, error) {
	if !bytes.HasPrefix(data, []byte("object ")) {
		// git's parse_tag_buffer: the body starts with the object header.
		return oid.Zero, oid.Invalid, fmt.Errorf("tag %s is malformed", id)
	}
	var target oid.ID
	var typ oid.Type
	var bad bool
	n := 0
	headers(data, func(name, value string) {
		n++
		switch {
		case n == 1 && name == "object" && oid.IsHex(value):
			target = oid.FromHex(value)
		case n == 1:
			bad = true
		case n == 2 && name == "type":
			var err error
			if typ, err = oid.ParseType(value); err != nil {
				bad = true
			}
		case n == 2:
			bad = true
		}
	})
	if bad || n < 2 {
		return oid.Zero, oid.Invalid, fmt.Errorf("tag %s is malformed", id)
	}
	return target, typ, nil
}

// encodeCommit writes a commit object as git commit-tree does:
// tree, parents, author, committer, a blank line and the message
// (which the caller ends with a newline).
func encodeCommit(tree oid.ID, parents []oid.ID, author, committer Ident, message string) encodedObject {
	return newObject(oid.Commit, commitData(tree, parents, author, committer, message))
}

// commitData is the data of the commit object encodeCommit writes.
func commitData(tree oid.ID, parents []oid.ID, author, committer Ident, message string) []byte {
	var b strings.Builder
	b.WriteString("tree " + tree.String() + "\n")
	for _, p := range parents {
		b.WriteString("parent " + p.String() + "\n")
	}
	b.WriteString("author " + signature(author) + "\n")
	b.WriteString("committer " + signature(committer) + "\n")
	b.WriteString("\n")
	b.WriteString(message)
	return []byte(b.String())
}

// signature is an identity as a commit header carries it: "Name
// <email> seconds +hhmm", times before 1970 written as 0 as go-git
// wrote them.
func signature(id Ident) string {
	return id.Name + " <" + id.Email + "> " + strconv.FormatInt(max(id.When.Unix(), 0), 10) + " " + id.When.Format("-0700")
}
