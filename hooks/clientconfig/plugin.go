package clientconfig

import (
	"encoding/json"
	"fmt"
)

// PluginHookCommand is the PreToolUse command the Claude Code plugin
// (hooks/hooks.json at the repository root) runs: the same launcher as the
// project settings, with --plugin, so that the plugin's hook steps aside
// when the project's .claude/settings.json already runs swarm-guard
// (plugin and project hooks never both run).
func PluginHookCommand() string {
	return denyingLauncherScript("hook --plugin")
}

// PluginOtherHookCommand is the plugin's command for the events other than
// PreToolUse and PostToolUse (PostToolUseFailure, SessionStart): the
// launcher without the PreToolUse deny JSON.
func PluginOtherHookCommand() string { return launcherScript("hook --plugin") }

// PluginPostHookCommand is PostHookCommand for the plugin:
// swarm-guard-post --plugin hands what it does not answer to
// `swarm-guard hook --plugin`.
func PluginPostHookCommand() string { return postLauncherScript("--plugin") }

// PluginHooksJSON is the content of hooks/hooks.json: PreToolUse and
// PostToolUse as install writes them, and SessionStart, where a missing
// binary is reported as soon as the session starts.
func PluginHooksJSON() []byte {
	hooks := newObject()
	events := append([]struct {
		name    string
		timeout int
	}{}, claudeEvents...)
	events = append(events, struct {
		name    string
		timeout int
	}{"SessionStart", 30})
	for _, ev := range events {
		handler := newObject()
		handler.set("type", "command")
		command := PluginOtherHookCommand()
		switch ev.name {
		case "PreToolUse":
			command = PluginHookCommand()
		case "PostToolUse":
			command = PluginPostHookCommand()
		}
		handler.set("command", command)
		handler.set("timeout", json.Number(fmt.Sprint(ev.timeout)))
		group := newObject()
		if ev.name != "SessionStart" {
			group.set("matcher", "*")
		}
		group.set("hooks", []any{handler})
		hooks.set(ev.name, []any{group})
	}
	root := newObject()
	root.set("description", "swarm-guard: guards every tool call (PreToolUse), scans what it wrote (PostToolUse); steps aside when the project's .claude/settings.json already runs swarm-guard")
	root.set("hooks", hooks)
	return marshalJSON(root)
}
