//go:build !unix

package main

import "errors"

// replaceProcess: no process can be replaced here, and the MCP server
// runs as a child (execServer).
const replaceProcess = false

func execProcess(string, []string) error { return errors.ErrUnsupported }
