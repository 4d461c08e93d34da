package main

import (
	"fmt"

	"github.com/swarm-guard/swarm-guard/install"
)

// failClosedResult says whether this machine's Claude Code blocks a call
// when swarm-guard's hook cannot do its job. A missing binary always blocks
// (the launcher exits 2); a hook that crashes, is killed or times out blocks
// only with "onFailure": "block" on a Claude Code that honours it. A Claude
// Code before 2.0.56 runs none of swarm-guard's hooks (install.HooksSince).
// install prints this as a note, doctor as a check.
func failClosedResult(s install.SettingsState, claudeVersion string) doctorResult {
	const name = "fail closed"
	if len(s.Ours) == 0 {
		return doctorSkip(name, "no swarm-guard hook in .claude/settings.json")
	}
	if claudeVersion == "" {
		return doctorSkip(name, "claude is not on PATH here, so whether its hooks fail closed cannot be told; run swarm-guard doctor where Claude Code runs")
	}
	if !install.RunsOurHooks(claudeVersion) {
		return doctorFail(name, fmt.Sprintf("this Claude Code (%s) predates %s, does not know PostToolUseFailure and ignores every hook of a settings file that registers it, as swarm-guard's does: no swarm-guard hook runs here", claudeVersion, install.HooksSince),
			"update Claude Code to "+install.OnFailureSince+" or later (claude update), then run swarm-guard doctor")
	}
	supports := install.SupportsOnFailure(claudeVersion)
	switch {
	case supports && s.OnFailureBlock:
		return doctorOK(name, fmt.Sprintf("Claude Code %s honours onFailure: block, so a hook that cannot start, crashes or times out blocks the call", claudeVersion))
	case supports:
		return doctorFail(name, fmt.Sprintf("the hooks lack onFailure: block, so on this Claude Code (%s) a hook that crashes or times out lets the call through (a missing binary still blocks)", claudeVersion),
			"swarm-guard install --on-failure block (then commit .claude/settings.json: teammates' Claude Code older than "+install.OnFailureSince+" ignores the key)")
	default:
		return doctorWarn(name, fmt.Sprintf("this Claude Code (%s) predates %s and ignores onFailure, so a hook that crashes or times out lets the call through here (a missing binary still blocks)", claudeVersion, install.OnFailureSince),
			"update Claude Code to "+install.OnFailureSince+" or later (claude update)")
	}
}
