package patch

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestCarriedIDs: ids a change carries are written as they are and
// spare the hashing; Verify holds the carried ids of short contents to
// their hashes, so a wrong one is caught, and trusts those of long ones.
func TestCarriedIDs(t *testing.T) {
	// 10,000 lines (about 110 KB) is longer than idCheckMax and shorter
	// than 256 KiB and 1 MiB, up to which Verify once hashed every
	// content.
	for _, size := range []int{20, 10000} {
		old := ptNumbered("line ", 1, size)
		new := ptEdit(old, size-5, "changed")
		if size > 20 && len(old) <= idCheckMax {
			t.Fatalf("the long file is %d bytes", len(old))
		}
		plain := ptMod("f.txt", old, new)
		want, err := Format(plain, Options{})
		if err != nil {
			t.Fatal(err)
		}
		right := ptMod("f.txt", old, new)
		right[0].OldID, right[0].NewID = BlobID([]byte(old)), BlobID([]byte(new))
		got, err := Format(right, Options{})
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d lines: the right carried ids change the patch (%v):\n%s", size, err, firstDiff(want, got))
		}
		if err := Verify(got, right); err != nil {
			t.Fatalf("%d lines: Verify: %v", size, err)
		}
		for _, side := range []string{"old", "new"} {
			wrong := ptMod("f.txt", old, new)
			const fake = "0123456789abcdef0123456789abcdef01234567"
			if side == "old" {
				wrong[0].OldID = fake
			} else {
				wrong[0].NewID = fake
			}
			p, err := Format(wrong, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(p), "0123456") {
				t.Fatalf("%d lines: the carried %s id is not written:\n%s", size, side, p)
			}
			err = Verify(p, wrong)
			if long := len(old) > idCheckMax; long != (err == nil) {
				t.Errorf("%d lines, a wrong %s id: Verify says %v", size, side, err)
			} else if !long && !errors.Is(err, ErrMismatch) {
				t.Errorf("%d lines, a wrong %s id: %v, want ErrMismatch", size, side, err)
			}
		}
	}
}
