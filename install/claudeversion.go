package install

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"time"
)

// onFailureSince is the first Claude Code version that understands
// "onFailure": "block" on hook handlers.
var onFailureSince = [3]int{2, 1, 295}

// ClaudeSupportsOnFailure asks the installed claude CLI for its version.
// Without claude on PATH, or when unsure, it says no: older versions may
// reject unknown keys, and a settings file Claude Code rejects runs no
// hooks at all.
func ClaudeSupportsOnFailure() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "claude", "--version").Output()
	if err != nil {
		return false
	}
	return versionAtLeast(string(out), onFailureSince)
}

func versionAtLeast(s string, min [3]int) bool {
	m := regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`).FindStringSubmatch(s)
	if m == nil {
		return false
	}
	for i := 0; i < 3; i++ {
		n, _ := strconv.Atoi(m[i+1])
		if n != min[i] {
			return n > min[i]
		}
	}
	return true
}
