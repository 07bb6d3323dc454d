//go:build unix

package main

import (
	"os"
	"syscall"
)

// replaceProcess: the MCP server's binary replaces this process.
const replaceProcess = true

// execProcess replaces this process with path, given args and this
// process's environment; it returns only when it cannot.
func execProcess(path string, args []string) error {
	return syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
