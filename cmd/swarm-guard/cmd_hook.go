package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/swarm-guard/swarm-guard/hooks/claude"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/watch"
	"github.com/swarm-guard/swarm-guard/install"
)

func init() {
	commands = append(commands, &command{
		name:    "hook",
		summary: "answer one Claude Code hook event (JSON on stdin); run by Claude Code",
		usage: `Usage: swarm-guard hook [--plugin]

Reads one Claude Code hook event as JSON on stdin. A blocked tool call gets
its reason on stderr and exit code 2; otherwise the exit code is 0 and stdout
is empty (or holds the JSON of an "ask" decision). Installed by
swarm-guard install; not meant to be run by hand. --plugin is how the
Claude Code plugin runs it: it does nothing when the project's
.claude/settings.json already runs swarm-guard for the event.`,
		run: runHook,
	})
}

func runHook(c *cli, args []string) error {
	if len(args) == 1 && args[0] == "--plugin" {
		// Run from the Claude Code plugin's hooks/hooks.json. When the
		// project's settings already run swarm-guard, those hooks decide:
		// the plugin's step aside so no call is judged (and logged) twice.
		if dir := c.getenv("CLAUDE_PROJECT_DIR"); dir != "" {
			if s := install.InspectSettings(dir); len(s.Ours) > 0 {
				// Per event: settings from an older install may lack one
				// (PostToolUseFailure), which the plugin then still serves.
				in, err := io.ReadAll(c.stdin)
				if err != nil {
					return err
				}
				var ev struct {
					Name string `json:"hook_event_name"`
				}
				if json.Unmarshal(in, &ev) != nil || len(s.Ours[ev.Name]) > 0 {
					return nil
				}
				c.stdin = bytes.NewReader(in)
			}
		}
		args = nil
	}
	if len(args) == 3 && args[0] == "--watch" {
		// The worktree's file watcher (hooks/secretscan/watch), which
		// PostToolUse starts in the background: not for hands.
		if err := watch.Serve(watch.For(args[1], args[2])); err != nil {
			return silentExit(1)
		}
		return nil
	}
	if len(args) > 0 {
		// Extra arguments mean a misconfigured settings file; blocking
		// beats guessing what was meant.
		fmt.Fprintf(c.stderr, "swarm-guard blocked this call (rule bad-input): the hook command has unexpected arguments %q; run `swarm-guard install` to rewrite it.\n", args)
		return silentExit(exitBlock)
	}
	self := c.self
	if self == nil {
		self = c.executable
	}
	exe, _ := self()
	exes := hookenv.GuardExecutables(exe)
	resp := claude.Handle(claude.Runtime{
		Stdin: c.stdin, Getenv: c.getenv, Now: c.now, Executables: exes,
		ContentCheck: contentCheck, PostToolUse: postToolUse, BudgetCheck: budgetCheck,
	})
	fmt.Fprint(c.stdout, resp.Stdout)
	fmt.Fprint(c.stderr, resp.Stderr)
	return silentExit(resp.Exit)
}
