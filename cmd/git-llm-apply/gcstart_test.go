package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the garbage collector's percentage.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestStartLate: the first collection waits for five times the usual
// heap, and every collection after it is the usual one; a GOGC the user
// set is left alone.
func TestStartLate(t *testing.T) {
	defer debug.SetGCPercent(gcPercent())
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set for the test process")
	}
	debug.SetGCPercent(100)
	startLate()
	if p := gcPercent(); p != 400 {
		t.Fatalf("before the first collection: GOGC %d, want 400", p)
	}
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() != 100 {
		if time.Now().After(deadline) {
			t.Fatalf("after a collection: GOGC %d, want 100", gcPercent())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	startLate()
	if p := gcPercent(); p != 50 {
		t.Fatalf("with GOGC=50 set: GOGC %d, want 50", p)
	}
}
