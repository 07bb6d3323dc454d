package gitops

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// zeroID is the old value a reflog records for a branch that did not
// exist.
const zeroID = "0000000000000000000000000000000000000000"

// Finish moves refs/heads/<Branch> to the last recorded commit, if any
// was recorded (else it does nothing). It first writes the recorded
// objects under their final names, durable as core.fsync says
// (fsync.go): the run's pack, synced and named, and objects/pack
// synced, or the loose objects, by default written out and flushed
// together before they get their names; then it moves the branch with
// git's lock-file protocol:
// it creates <commondir>/refs/heads/<Branch>.lock exclusively
// (ErrRefLocked, naming the lock file, when it exists), re-reads the
// branch (loose, else packed-refs) and compares it with opts.Expect
// (ErrRefMoved when it moved; the lock is removed and nothing changes),
// writes the new id to the lock file, syncs it (core.fsync's
// reference, on by default here), appends the reflog
// entry (logs/refs/heads/<Branch>, as core.logAllRefUpdates allows) and
// renames the lock over the ref. After a successful Finish, further
// Record and Finish calls continue from the new tip, in a new pack.
func (w *BranchWriter) Finish() error {
	if len(w.commits) == 0 {
		return nil
	}
	newID := w.commits[len(w.commits)-1]
	if newID == w.opts.Expect {
		return nil
	}
	msg := w.opts.ReflogMsg
	if msg == "" {
		msg = "llm-apply: " + w.subject
	}
	who := w.committer
	if !w.fixedDate {
		who.When = time.Now()
	}
	switch {
	case w.pack != nil:
		if err := w.sealPack(); err != nil {
			return err
		}
	case w.held != nil:
		if err := w.writeHeld(); err != nil {
			return err
		}
	}
	if err := syncDirs(w.unsynced); err != nil {
		return err
	}
	if err := w.r.updateBranch(w.opts, newID, who, msg, w.logRefs, w.durable); err != nil {
		return err
	}
	w.opts.Expect = newID
	return nil
}

// updateBranch compares refs/heads/<opts.Branch> with opts.Expect and
// sets it to newID under its lock, syncing the lock file before the
// rename (and the ref's directory after it) as d says for refs.
func (r *Repo) updateBranch(opts WriteOptions, newID string, who Ident, msg string, logRefs bool, d durability) (err error) {
	ref := "refs/heads/" + opts.Branch
	refPath := filepath.Join(r.commonDir, filepath.FromSlash(ref))
	lock := refPath + ".lock"
	if err := r.checkRefConflict(ref); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(refPath), 0o777); err != nil {
		return fmt.Errorf("cannot create %s: %w", ref, err)
	}
	f, err := r.lockRef(ref, lock)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			f.Close()
			os.Remove(lock)
		}
	}()

	cur, exists, err := r.readRef(ref)
	if err != nil {
		return err
	}
	if err := checkExpected(opts, cur, exists); err != nil {
		return err
	}
	if err := r.checkNotCheckedOut(opts); err != nil {
		return err
	}
	// The store, not a pack still being written: the commit must be
	// durable under its final name.
	if has, err := r.objects().Has(oid.FromHex(newID)); err != nil || !has {
		return fmt.Errorf("commit %s is not in the object store (%v)", newID, err)
	}
	if _, err := f.WriteString(newID + "\n"); err != nil {
		return fmt.Errorf("writing %s: %w", lock, err)
	}
	if err := d.sync(fsyncReference, f); err != nil {
		return fmt.Errorf("writing %s: %w", lock, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", lock, err)
	}
	old := zeroID
	if exists {
		old = cur
	}
	if err := r.appendReflog(ref, old, newID, who, msg, logRefs); err != nil {
		return err
	}
	if err := os.Rename(lock, refPath); err != nil {
		return fmt.Errorf("updating %s: %w", ref, err)
	}
	committed = true
	if !d.syncsDir(fsyncReference) {
		return nil
	}
	if err := syncDir(filepath.Dir(refPath)); err != nil {
		return fmt.Errorf("%s is updated but not yet on disk: %w", ref, err)
	}
	return nil
}

// started is when this process began: a lock file older than that was
// left by a process that can no longer be running this command.
var started = time.Now()

// defaultLockTimeout is git's core.filesRefLockTimeout default: how long
// to keep trying a lock another writer holds.
const defaultLockTimeout = 100 * time.Millisecond

// lockRef creates lock exclusively, retrying with git's back-off for
// core.filesRefLockTimeout (100 ms): a writer holds a ref lock for
// about a millisecond. ErrRefLocked when it stays; the error tells a
// lock older than this run (left by a killed process) from a live one,
// and gives the command that removes it.
func (r *Repo) lockRef(ref, lock string) (*os.File, error) {
	timeout := defaultLockTimeout
	if cfg, err := r.config(); err == nil {
		if v, ok := cfg.Get("core.filesreflocktimeout"); ok {
			if ms, err := strconv.Atoi(v); err == nil {
				timeout = time.Duration(ms) * time.Millisecond
			}
		}
	}
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("locking %s: %w", ref, err)
		}
		if timeout >= 0 && !time.Now().Before(deadline) {
			return nil, lockedError(ref, lock)
		}
		time.Sleep(wait)
		wait = min(2*wait, 20*time.Millisecond)
	}
}

// lockedError says who holds lock: a writer still running, or one that
// stopped before this run began.
func lockedError(ref, lock string) error {
	fi, err := os.Stat(lock)
	if err == nil && fi.ModTime().Before(started) {
		return fmt.Errorf("%w: %s was left at %s by a git process that did not finish; if none is running in this repository, remove it with: rm %s",
			ErrRefLocked, lock, fi.ModTime().Format(time.DateTime), shquote.Word(lock))
	}
	return fmt.Errorf("%w: another process is updating %s (it holds %s)", ErrRefLocked, ref, lock)
}

// checkRefConflict fails when ref cannot exist next to the other refs:
// a ref named by one of its leading components ("refs/heads/a" for
// "refs/heads/a/b") or refs below it, loose or packed.
func (r *Repo) checkRefConflict(ref string) error {
	parts := strings.Split(ref, "/")
	ancestors := map[string]bool{}
	for i := 3; i < len(parts); i++ {
		a := strings.Join(parts[:i], "/")
		ancestors[a] = true
		if fi, err := os.Stat(filepath.Join(r.commonDir, filepath.FromSlash(a))); err == nil && !fi.IsDir() {
			return fmt.Errorf("cannot create %s: %s exists", ref, a)
		}
	}
	if fi, err := os.Stat(filepath.Join(r.commonDir, filepath.FromSlash(ref))); err == nil && fi.IsDir() {
		if ents, _ := os.ReadDir(filepath.Join(r.commonDir, filepath.FromSlash(ref))); len(ents) > 0 {
			return fmt.Errorf("cannot create %s: refs exist below it", ref)
		}
	}
	var conflict string
	err := r.eachPackedRef(func(name, _ string) bool {
		if ancestors[name] || strings.HasPrefix(name, ref+"/") {
			conflict = name
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	if conflict != "" {
		return fmt.Errorf("cannot create %s: %s exists", ref, conflict)
	}
	return nil
}

// appendReflog appends "<old> <new> <name> <<email>> <unix> <zone>\t<msg>"
// to logs/<ref> in the common dir, creating it when logRefs allows (an
// existing log is always appended to).
func (r *Repo) appendReflog(ref, old, newID string, who Ident, msg string, logRefs bool) error {
	path := filepath.Join(r.commonDir, "logs", filepath.FromSlash(ref))
	if _, err := os.Stat(path); err != nil && !logRefs {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return fmt.Errorf("creating the reflog of %s: %w", ref, err)
	}
	line := fmt.Sprintf("%s %s %s <%s> %d %s", old, newID, who.Name, who.Email, who.When.Unix(), who.When.Format("-0700"))
	if m := reflogMessage(msg); m != "" {
		line += "\t" + m
	}
	// Not waiting for a reader should a FIFO be there; what is no
	// regular file is refused (SPEC section 5).
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o666)
	if err != nil {
		return fmt.Errorf("opening the reflog of %s: %w", ref, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &fsread.NotRegularError{Path: path, Mode: fi.Mode()}
		}
		return fmt.Errorf("opening the reflog of %s: %w", ref, err)
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		f.Close()
		return fmt.Errorf("writing the reflog of %s: %w", ref, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the reflog of %s: %w", ref, err)
	}
	return nil
}

// reflogMessage folds runs of white space (newlines included) into one
// space and trims them at both ends, as git's copy_reflog_msg.
func reflogMessage(msg string) string {
	return strings.Join(strings.FieldsFunc(msg, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r'
	}), " ")
}
