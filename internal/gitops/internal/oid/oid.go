// Package oid is how git names an object: its id, the SHA-1 of its
// type, size and content (collision-detecting, as git's own sha1dc),
// and its type. It is the one id type of gitops and its plumbing
// packages; it replaces go-git's plumbing.Hash, so that the production
// build needs nothing of go-git (gitformat-object).
package oid

import (
	"encoding/hex"
	"errors"
	"hash"
	"strconv"

	"github.com/pjbgf/sha1cd"
)

// Size is the length of an id in bytes, HexSize in hex digits.
const (
	Size    = 20
	HexSize = 2 * Size
)

// ID is an object id: SHA-1, 20 bytes.
type ID [Size]byte

// Zero is the id of no object: a branch that does not exist yet.
var Zero ID

// IsZero reports whether id is Zero.
func (id ID) IsZero() bool { return id == Zero }

// String is id in lower-case hex, as git prints it.
func (id ID) String() string { return hex.EncodeToString(id[:]) }

// Parse reads a full id in hex, either case (git's hexval does).
func Parse(s string) (ID, bool) {
	var id ID
	if len(s) != HexSize {
		return id, false
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return Zero, false
	}
	return id, true
}

// FromHex is Parse for text already known to be an id (git printed it,
// or IsHex checked it); anything else is Zero.
func FromHex(s string) ID {
	id, _ := Parse(s)
	return id
}

// IsHex reports whether s is a full id in hex.
func IsHex(s string) bool {
	_, ok := Parse(s)
	return ok
}

// Type is an object's type, with the numbers a pack uses for it.
type Type int8

// The types: 5 is reserved; the deltas live only in packs.
const (
	Invalid  Type = 0
	Commit   Type = 1
	Tree     Type = 2
	Blob     Type = 3
	Tag      Type = 4
	OFSDelta Type = 6
	REFDelta Type = 7
)

// ErrType is ParseType's error for a name that is no type.
var ErrType = errors.New("invalid object type")

var typeNames = [...]string{Commit: "commit", Tree: "tree", Blob: "blob", Tag: "tag", OFSDelta: "ofs-delta", REFDelta: "ref-delta"}

// String is the type's name in an object's header ("blob"), or
// "unknown".
func (t Type) String() string {
	if t >= 0 && int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return "unknown"
}

// Valid reports whether t is a type a pack may name: 1 to 7.
func (t Type) Valid() bool { return t >= Commit && t <= REFDelta }

// ParseType reads a type's name; the deltas' names are read too, so
// that a caller can refuse them by name.
func ParseType(name string) (Type, error) {
	for t, n := range typeNames {
		if n != "" && n == name {
			return Type(t), nil
		}
	}
	return Invalid, ErrType
}

// Hasher computes an object's id while its content is written to it.
type Hasher struct{ h hash.Hash }

// NewHasher starts the id of an object of type t and size bytes: the
// header "<type> <size>\x00" is hashed first.
func NewHasher(t Type, size int64) Hasher {
	h := Hasher{sha1cd.New()}
	h.h.Write(strconv.AppendInt([]byte(t.String()+" "), size, 10))
	h.h.Write([]byte{0})
	return h
}

// Write hashes more of the content; it never fails.
func (h Hasher) Write(p []byte) (int, error) { return h.h.Write(p) }

// Sum is the id of what was written.
func (h Hasher) Sum() ID {
	var id ID
	copy(id[:], h.h.Sum(nil))
	return id
}

// Sum is the id of an object of type t with content data.
func Sum(t Type, data []byte) ID {
	h := NewHasher(t, int64(len(data)))
	h.Write(data)
	return h.Sum()
}
