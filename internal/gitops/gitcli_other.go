//go:build !unix

package gitops

import "os/exec"

// inGroup: Windows has no SIGTERM; exec.CommandContext's default
// Cancel (TerminateProcess) ends git, its children being left to it.
func inGroup(*exec.Cmd) {}
