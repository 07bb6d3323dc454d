//go:build !linux

package index

import "io/fs"

func fillStat(s *[idAt]byte, fi fs.FileInfo) { fillPortable(s, fi) }
