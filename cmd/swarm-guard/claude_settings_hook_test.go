package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdClaudeSettingsHook runs the swarm-guard hook command that the
// committed .claude/settings.json of the current directory registers for
// an event, the way Claude Code runs it (through /bin/sh, the script's
// stdin), and requires an exact exit status:
//
//	claude-settings-hook 2 PreToolUse
//
// It tests what a teammate's Claude Code would run, not what install meant.
func cmdClaudeSettingsHook(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: claude-settings-hook N EVENT")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	data, err := os.ReadFile(ts.MkAbs(".claude/settings.json"))
	ts.Check(err)
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	ts.Check(json.Unmarshal(data, &settings))
	command := ""
	for _, g := range settings.Hooks[args[1]] {
		for _, h := range g.Hooks {
			if strings.Contains(h.Command, "swarm-guard") {
				command = h.Command
			}
		}
	}
	if command == "" {
		ts.Fatalf("no swarm-guard hook for %s in .claude/settings.json", args[1])
	}
	got := 0
	if err := ts.Exec("/bin/sh", "-c", command); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("the %s hook exited with status %d, want %d", args[1], got, want)
	}
}
