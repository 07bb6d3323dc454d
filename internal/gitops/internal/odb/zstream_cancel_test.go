package odb

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// cancelAfter is a reader that ends ctx once it has handed out n bytes.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	if c.n -= k; c.n <= 0 {
		c.cancel()
	}
	return k, err
}

// fill looks at its context before each step (SPEC section 2): ended
// before it starts, nothing is inflated; ended midway, at most a step
// more is, and the error is the context's.
func TestFillStopsWithItsContext(t *testing.T) {
	t.Parallel()
	const size = 8 * fillStep
	content := make([]byte, size)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range content {
		content[i] = byte(1 + rng.IntN(255)) // no zero: a zero byte was not inflated
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(content)
	w.Close()
	for _, c := range []struct {
		name  string
		after int // compressed bytes read before the context ends
		most  int // inflated bytes at most
	}{
		{"ended before", 0, 0},
		{"ended after two steps' input", 2 * fillStep, 4 * fillStep},
		{"ended after five steps' input", 5 * fillStep, 7 * fillStep},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			src := io.Reader(bytes.NewReader(z.Bytes()))
			if c.after == 0 {
				cancel()
			} else {
				src = &cancelAfter{r: src, n: c.after, cancel: cancel}
			}
			var zs zstream
			if err := zs.reset(bufio.NewReader(src)); err != nil {
				t.Fatal(err)
			}
			data := make([]byte, size)
			var hashed countWriter
			err := zs.fill(ctx, data, &hashed)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("fill = %v; want context.Canceled", err)
			}
			done := len(data) - bytes.Count(data, []byte{0})
			if done > c.most {
				t.Errorf("%d bytes inflated; want at most %d", done, c.most)
			}
			if int(hashed) > done {
				t.Errorf("%d bytes hashed of %d inflated", hashed, done)
			}
		})
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }
