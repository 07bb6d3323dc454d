package odb

// Reading a zlib stream (RFC 1950) with its checksum checked here, not
// by compress/zlib: the Adler-32 of a long content is then computed on
// a second goroutine while the content inflates, together with the
// object's hash when that is checked too (see fill).

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"hash"
	"hash/adler32"
	"io"

	"github.com/klauspost/compress/flate"

	"github.com/git-llm-apply/git-llm-apply/internal/poll"
)

// zstream reads one zlib stream from br: a two-byte header, a deflate
// stream, and the big-endian Adler-32 of what it inflates to. Reset
// it for each stream; its inflater is reused.
type zstream struct {
	br    *bufio.Reader
	fr    io.ReadCloser
	adler hash.Hash32
}

// errZlibHeader and errZlibChecksum are what compress/zlib calls
// ErrHeader and ErrChecksum.
var (
	errZlibHeader   = errors.New("zlib: invalid header")
	errZlibChecksum = errors.New("zlib: invalid checksum")
)

// reset starts reading a stream from br, whose header it reads. The
// inflater reads br byte by byte where it must (br is an
// io.ByteReader), so that br stands at the checksum when the deflate
// stream ends.
func (z *zstream) reset(br *bufio.Reader) error {
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return err
	}
	// Deflate (8) with a window of at most 32 KiB, no preset dictionary
	// (which no git object uses), and the check bits right.
	if h[0]&0x0f != 8 || h[0]>>4 > 7 || h[1]&0x20 != 0 || (uint16(h[0])<<8|uint16(h[1]))%31 != 0 {
		return errZlibHeader
	}
	if z.fr == nil {
		z.fr, z.adler = flate.NewReader(br), adler32.New()
	} else {
		if err := z.fr.(flate.Resetter).Reset(br, nil); err != nil {
			return err
		}
		z.adler.Reset()
	}
	z.br = br
	return nil
}

// Read reads inflated bytes, checksummed.
func (z *zstream) Read(p []byte) (int, error) {
	n, err := z.fr.Read(p)
	z.adler.Write(p[:n])
	return n, err
}

// fillStep is the length from which fill checksums, and hashes, on a
// second goroutine, and the step it hands over at a time.
const fillStep = 1 << 20

// fill reads exactly len(data) inflated bytes into data, checksummed
// and written to also when it is not nil. A long content is
// checksummed and hashed on another goroutine a step behind the
// inflating: for a 2.3 MB blob the two took a third as long as the
// inflating, and the object's hash (collision-detecting SHA-1) of a
// 28 MB one half as long. It looks at ctx before each step, and
// returns its error when it has ended (SPEC section 2).
func (z *zstream) fill(ctx context.Context, data []byte, also io.Writer) error {
	sum := func(b []byte) {
		z.adler.Write(b)
		if also != nil {
			also.Write(b)
		}
	}
	if len(data) <= fillStep {
		if _, err := io.ReadFull(z.fr, data); err != nil {
			return err
		}
		sum(data)
		return nil
	}
	poll.Begin("inflate", len(data))
	steps := make(chan []byte, 4)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range steps {
			sum(b)
		}
	}()
	var err error
	for at := 0; at < len(data) && err == nil; at += fillStep {
		b := data[at:min(at+fillStep, len(data))]
		if err = poll.Check(ctx, len(b)); err != nil {
			break
		}
		if _, err = io.ReadFull(z.fr, b); err == nil {
			steps <- b
		}
	}
	close(steps)
	<-done
	return err
}

// end checks that the stream ends where its content was read whole:
// the deflate stream ends there, and the checksum that follows it is
// that of everything inflated.
func (z *zstream) end() error {
	var one [1]byte
	for {
		n, err := z.fr.Read(one[:])
		if n > 0 {
			return errors.New("more content than its header says")
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	var sum [4]byte
	if _, err := io.ReadFull(z.br, sum[:]); err != nil {
		return io.ErrUnexpectedEOF
	}
	if binary.BigEndian.Uint32(sum[:]) != z.adler.Sum32() {
		return errZlibChecksum
	}
	return nil
}
