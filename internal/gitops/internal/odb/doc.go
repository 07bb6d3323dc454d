// Package odb reads git's object database as git does, without
// loading whole pack indexes: the objects directory and its
// alternates (Documentation/gitrepository-layout.txt, "objects" and
// "objects/info/alternates"), loose objects (zlib-deflated
// "<type> <size>\0<content>", inflated by zstream.go into a buffer of
// the size the header gives), and packs through their .idx, versions 1
// and 2 (Documentation/gitformat-pack.txt, "pack-*.idx files"). Objects
// are named by oid.ID.
//
// go-git's filesystem storage (which gitops used before) decodes every .idx of the repository
// into memory the first time it reads a packed object, and builds a
// map from offset to name of every object the first time it decodes
// one: for a reply touching ten files of a large repository, that is
// most of the run. Here a pack's .idx is read in place (the fanout
// table once, then a binary search with a few reads of the file, as
// git does), and an entry is inflated straight into a buffer of the
// size its header gives (a delta's result into one of the size the
// delta gives), with the delta bases met on the way cached (packread.go).
//
// Errors read as sentences without a package prefix: they reach the
// user unchanged.
package odb
