//go:build unix

package client

import (
	"os/exec"
	"syscall"
)

// detach puts the server in a session of its own: it outlives the hook.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
