package clientconfig

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The lookup rule: every hook that committed files run finds the
// swarm-guard binary the same way on every teammate's machine, so the
// committed files hold no machine-specific path and are identical whoever
// runs install:
//
//  1. swarm-guard on PATH;
//  2. the repository's npm devDependency: <worktree>/node_modules/.bin/swarm-guard;
//  3. per-user locations: ~/.local/bin/swarm-guard, then ~/go/bin/swarm-guard
//     (where `go install` and `make install` put it by default).
//
// When none is executable the hook blocks (exit 2 for Claude Code, the only
// code it treats as a block; exit 1 for git) with InstallHint: a guard that
// silently stops running is no guard.

// InstallHint is the one line a hook prints when the binary is not found.
// It holds no quote, backslash, backtick or dollar, so it reads the same in
// every shell the launcher passes through.
const InstallHint = "swarm-guard: not found on PATH, in node_modules/.bin, ~/.local/bin or ~/go/bin; install it (make install in the swarm-guard source puts it in ~/go/bin), then run swarm-guard doctor"

// LookupScript is the POSIX sh that sets $sg by the lookup rule; root is a
// shell expression for the worktree root. It leaves $sg not executable when
// nothing is found.
//
// It walks PATH itself instead of sg=$(command -v swarm-guard): a command
// substitution forks the shell, and this runs before every Claude Code tool
// call (the fork was about 40% of the launcher's own cost). It leaves IFS
// alone because husky user scripts go on after it.
func LookupScript(root string) string {
	return `sg_path=$PATH:; while [ -n "$sg_path" ]; do sg=${sg_path%%:*}/swarm-guard; sg_path=${sg_path#*:}; [ -f "$sg" ] && [ -x "$sg" ] && break; done; [ -f "$sg" ] && [ -x "$sg" ] || for sg in "` + root + `/node_modules/.bin/swarm-guard" "$HOME/.local/bin/swarm-guard" "$HOME/go/bin/swarm-guard"; do [ -x "$sg" ] && break; done`
}

// launcherMark is in every launcher command: how uninstall and doctor
// recognise it.
const launcherMark = `exec "$sg" hook;`

// LookupBinary applies the lookup rule in Go (for doctor): the binary the
// hooks of the worktree at root will run, "" when none.
func LookupBinary(root, home string, lookPath func(string) (string, error)) string {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	if p, err := lookPath("swarm-guard"); err == nil {
		return p
	}
	candidates := []string{filepath.Join(root, "node_modules", ".bin", "swarm-guard")}
	if home != "" {
		candidates = append(candidates, filepath.Join(home, ".local", "bin", "swarm-guard"), filepath.Join(home, "go", "bin", "swarm-guard"))
	}
	for _, c := range candidates {
		if isExecutable(c) {
			return c
		}
	}
	return ""
}

// IsLauncher reports whether a hook command is the path-free launcher.
func IsLauncher(command string) bool { return strings.Contains(command, launcherMark) }

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
