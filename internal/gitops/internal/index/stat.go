package index

import (
	"encoding/binary"
	"io/fs"
)

// fillPortable is the stat data a FileInfo alone gives: the change
// time taken as the modification time, as git does where there is no
// better.
func fillPortable(s *[idAt]byte, fi fs.FileInfo) {
	t := fi.ModTime()
	for i, v := range []uint32{
		uint32(t.Unix()), uint32(t.Nanosecond()), uint32(t.Unix()), uint32(t.Nanosecond()),
		0, 0, 0, 0, 0, uint32(fi.Size()),
	} {
		binary.BigEndian.PutUint32(s[4*i:], v)
	}
}
