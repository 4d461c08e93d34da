package install

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// hooksSince is the first Claude Code version that knows every hook event
// install registers: before 2.0.56 the client does not know
// PostToolUseFailure and ignores every hook of a settings file that
// registers it, so swarm-guard's settings run no hook at all (measured with
// 2.0.0 and 2.0.55; 2.0.56 runs them).
var hooksSince = [3]int{2, 0, 56}

// HooksSince is that first version, for messages.
const HooksSince = "2.0.56"

// RunsOurHooks reports whether a `claude --version` answer is a version
// that runs swarm-guard's hooks at all.
func RunsOurHooks(version string) bool { return versionAtLeast(version, hooksSince) }

// onFailureSince is the first Claude Code version that understands
// "onFailure": "block" on hook handlers.
var onFailureSince = [3]int{2, 1, 295}

// ClaudeSupportsOnFailure asks the installed claude CLI for its version.
// Without claude on PATH, or when unsure, it says no: older versions may
// reject unknown keys, and a settings file Claude Code rejects runs no
// hooks at all.
func ClaudeSupportsOnFailure() bool { return SupportsOnFailure(ClaudeVersion()) }

// ClaudeVersion is what `claude --version` prints on this machine, "" when
// claude is not on PATH or does not answer.
func ClaudeVersion() string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "claude", "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// SupportsOnFailure reports whether a `claude --version` answer is a
// version that honours "onFailure": "block".
func SupportsOnFailure(version string) bool { return versionAtLeast(version, onFailureSince) }

// OnFailureSince is that first version, for messages.
const OnFailureSince = "2.1.295"

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
