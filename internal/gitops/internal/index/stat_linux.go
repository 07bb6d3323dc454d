//go:build linux

package index

import (
	"encoding/binary"
	"io/fs"
	"syscall"
)

// fillStat puts the stat data git compares (times, device, inode,
// owner, size, each cut to 32 bits as git stores it) in s.
func fillStat(s *[idAt]byte, fi fs.FileInfo) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		fillPortable(s, fi)
		return
	}
	ctimeSec, ctimeNsec := st.Ctim.Unix()
	mtimeSec, mtimeNsec := st.Mtim.Unix()
	for i, v := range []uint32{
		uint32(ctimeSec), uint32(ctimeNsec), uint32(mtimeSec), uint32(mtimeNsec),
		uint32(st.Dev), uint32(st.Ino), 0, st.Uid, st.Gid, uint32(st.Size),
	} {
		binary.BigEndian.PutUint32(s[4*i:], v)
	}
}
