package odb

import "io"

// sumStep is the length from which ReadSummed sums on a second
// goroutine, and the step it hands over at a time.
const sumStep = 1 << 20

// ReadSummed reads exactly len(data) bytes from r into data and passes
// them, in order, to sum. A long content is summed on another
// goroutine a step behind the reading, so that a checksum or a hash
// costs little more than the longer of the two passes.
func ReadSummed(r io.Reader, data []byte, sum func([]byte)) error {
	if len(data) <= sumStep {
		if _, err := io.ReadFull(r, data); err != nil {
			return err
		}
		sum(data)
		return nil
	}
	steps := make(chan []byte, 4)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range steps {
			sum(b)
		}
	}()
	var err error
	for at := 0; at < len(data) && err == nil; at += sumStep {
		b := data[at:min(at+sumStep, len(data))]
		if _, err = io.ReadFull(r, b); err == nil {
			steps <- b
		}
	}
	close(steps)
	<-done
	return err
}
