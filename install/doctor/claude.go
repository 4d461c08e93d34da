package doctor

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/install"
)

func (d *doctor) checkSettings() []Result {
	const name = "claude hooks"
	reinstall := "run swarm-guard install"
	s := install.InspectSettings(d.Root)
	switch {
	case !s.Exists:
		return []Result{fail(name, s.Path+" does not exist, so Claude Code runs no swarm-guard hook", reinstall)}
	case s.Err != nil:
		return []Result{fail(name, s.Path+": "+s.Err.Error(), "fix the JSON: Claude Code runs no hook from a settings file it cannot parse")}
	}
	var missing []string
	binaries := map[string]bool{}
	// The earlier forms of the launcher, each a working, fail-closed
	// command: secondShell wraps it in another sh -c; earlierPost runs the
	// full binary after every tool; earlierDeny leaves the model reading
	// the launcher's text in front of the install hint when the binary is
	// missing.
	secondShell, earlierPost, earlierDeny := false, false, false
	for _, ev := range clientconfig.ClaudeEvents() {
		if len(s.Ours[ev]) == 0 {
			missing = append(missing, ev)
		}
		for _, cmd := range s.Ours[ev] {
			if clientconfig.IsLauncher(cmd) {
				binaries[""] = true // found by the lookup rule
				switch {
				case cmd == clientconfig.HookCommandFor(ev):
				case strings.HasPrefix(cmd, "sh -c"):
					secondShell = true
				case ev == "PostToolUse" && !strings.Contains(cmd, `"$sg-post"`):
					earlierPost = true
				default:
					earlierDeny = true
				}
				continue
			}
			binaries[install.CommandBinary(cmd)] = true
		}
	}
	var out []Result
	if len(missing) > 0 {
		out = append(out, fail(name, fmt.Sprintf("%s has no swarm-guard hook for %s", s.Path, strings.Join(missing, ", ")), reinstall))
	} else {
		out = append(out, ok(name, fmt.Sprintf("%s runs swarm-guard for %s", install.DisplayPath(d.Root, s.Path), strings.Join(clientconfig.ClaudeEvents(), ", "))))
	}
	if secondShell {
		// It works and fails closed; it only costs a second shell.
		out = append(out, warn(name, install.DisplayPath(d.Root, s.Path)+" holds an earlier form of the hook command, which starts a second shell on every tool call",
			"run swarm-guard install: it writes the current command; then commit .claude/settings.json"))
	}
	if earlierDeny && !secondShell {
		// It works and fails closed; only the missing binary's message
		// reaches the model behind the command's text.
		out = append(out, warn(name, install.DisplayPath(d.Root, s.Path)+" holds an earlier form of the PreToolUse command: when swarm-guard is missing, the agent reads that command's text in front of the install hint",
			"run swarm-guard install: it writes the current command; then commit .claude/settings.json"))
	}
	if earlierPost && !secondShell {
		// It works; PostToolUse only starts the full binary every time.
		out = append(out, warn(name, install.DisplayPath(d.Root, s.Path)+" runs the full swarm-guard hook for PostToolUse, an earlier form that starts it after every tool call, also after ls or git status",
			"run swarm-guard install: it writes the current command, which runs swarm-guard-post; then commit .claude/settings.json"))
	}
	for _, b := range slices.Sorted(maps.Keys(binaries)) {
		r := d.binaryResult("claude hook binary", b, false)
		out = append(out, r)
		if r.Status != "ok" {
			continue
		}
		if b == "" {
			home, _ := os.UserHomeDir()
			b = clientconfig.LookupBinary(d.Root, home, nil)
		}
		if w, ok := linkageWarning(b); ok {
			out = append(out, w)
		}
	}
	return out
}

// linkageWarning warns when the hook binary, or the swarm-guard-post next
// to it, is linked against the C library (install.DynamicallyLinked): it
// works, but the dynamic loader slows every tool call.
func linkageWarning(binary string) (Result, bool) {
	var dynamic []string
	for _, b := range []string{binary, binary + "-post"} {
		if d, _ := install.DynamicallyLinked(b); d {
			dynamic = append(dynamic, b)
		}
	}
	if len(dynamic) == 0 {
		return Result{}, false
	}
	verb := " is"
	if len(dynamic) > 1 {
		verb = " are"
	}
	return warn("hook start-up", strings.Join(dynamic, " and ")+verb+" linked against the C library (built with cgo): the dynamic loader adds about half a millisecond to every tool call", install.StaticHint(filepath.Dir(binary))), true
}

func (d *doctor) checkFailClosed() []Result {
	return []Result{FailClosed(install.InspectSettings(d.Root), install.ClaudeVersion())}
}

// binaryResult checks that a hook's binary runs. Git hooks fall back to
// swarm-guard on PATH; Claude Code hooks do not.
func (d *doctor) binaryResult(name, binary string, pathFallback bool) Result {
	if binary == "" {
		return d.lookupResult(name)
	}
	remedy := "run swarm-guard install, which writes the path of the swarm-guard you run it with (" + d.Binary + ")"
	if isExecutableFile(binary) {
		return ok(name, binary)
	}
	if pathFallback {
		if p, err := exec.LookPath("swarm-guard"); err == nil {
			return fail(name, fmt.Sprintf("%s is missing; the hooks fall back to %s from PATH, which a different PATH breaks", binary, p), remedy)
		}
	}
	return fail(name, binary+" is missing or not executable: the hooks cannot run it", remedy)
}

// lookupResult checks that the lookup rule (hooks/clientconfig/lookup.go) finds a
// binary for this worktree, as a teammate's hooks will look for it.
func (d *doctor) lookupResult(name string) Result {
	home, _ := os.UserHomeDir()
	if b := clientconfig.LookupBinary(d.Root, home, nil); b != "" {
		return ok(name, b+" (lookup rule: PATH, node_modules/.bin, ~/.local/bin, ~/go/bin)")
	}
	return fail(name, "no swarm-guard on PATH, in node_modules/.bin, ~/.local/bin or ~/go/bin: the hooks block every call and commit",
		"run make install in the swarm-guard source: it puts swarm-guard into $(go env GOPATH)/bin, ~/go/bin by default, where the hooks look")
}

// FailClosed says whether this machine's Claude Code blocks a call
// when swarm-guard's hook cannot do its job. A missing binary always blocks
// (the launcher exits 2); a hook that crashes, is killed or times out blocks
// only with "onFailure": "block" on a Claude Code that honours it. A Claude
// Code before 2.0.56 runs none of swarm-guard's hooks (install.HooksSince).
// install prints it as a note, doctor as a check.
func FailClosed(s install.SettingsState, claudeVersion string) Result {
	const name = "fail closed"
	if len(s.Ours) == 0 {
		return skip(name, "no swarm-guard hook in .claude/settings.json")
	}
	if claudeVersion == "" {
		return skip(name, "claude is not on PATH here, so whether its hooks fail closed cannot be told; run swarm-guard doctor where Claude Code runs")
	}
	if !install.RunsOurHooks(claudeVersion) {
		return fail(name, fmt.Sprintf("this Claude Code (%s) predates %s, does not know PostToolUseFailure and ignores every hook of a settings file that registers it, as swarm-guard's does: no swarm-guard hook runs here", claudeVersion, install.HooksSince),
			"update Claude Code to "+install.OnFailureSince+" or later (claude update), then run swarm-guard doctor")
	}
	supports := install.SupportsOnFailure(claudeVersion)
	switch {
	case supports && s.OnFailureBlock:
		return ok(name, fmt.Sprintf("Claude Code %s honours onFailure: block, so a hook that cannot start, crashes or times out blocks the call", claudeVersion))
	case supports:
		return fail(name, fmt.Sprintf("the hooks lack onFailure: block, so on this Claude Code (%s) a hook that crashes or times out lets the call through (a missing binary still blocks)", claudeVersion),
			"swarm-guard install --on-failure block (then commit .claude/settings.json: teammates' Claude Code older than "+install.OnFailureSince+" ignores the key)")
	default:
		return warn(name, fmt.Sprintf("this Claude Code (%s) predates %s and ignores onFailure, so a hook that crashes or times out lets the call through here (a missing binary still blocks)", claudeVersion, install.OnFailureSince),
			"update Claude Code to "+install.OnFailureSince+" or later (claude update)")
	}
}
