//go:build unix

package gitops

import (
	"os/exec"
	"syscall"
)

// inGroup runs cmd in a process group of its own and makes its Cancel
// send SIGTERM to the whole group: git and the hooks and helpers it
// started end together, each by its own handler (see runGit).
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
}
