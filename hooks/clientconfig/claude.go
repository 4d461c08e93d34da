package clientconfig

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clients"
)

// Hook events swarm-guard registers, with their timeouts in seconds. The
// hook decides within one second internally; the generous timeout only
// guards against a machine so loaded that even that fails, because a hook
// Claude Code kills lets the call through.
var claudeEvents = []struct {
	name    string
	timeout int
}{
	{"PreToolUse", 30},
	{"PostToolUse", 60},
	// A Bash command that exits non-zero fires PostToolUseFailure instead
	// of PostToolUse: "echo $KEY > f && false" must be scanned too.
	{"PostToolUseFailure", 60},
}

// SettingsPath is the project settings file Claude Code reads.
func SettingsPath(root string) string { return filepath.Join(root, ".claude", "settings.json") }

// ClaudeEvents are the hook events install registers.
func ClaudeEvents() []string {
	out := make([]string, len(claudeEvents))
	for i, ev := range claudeEvents {
		out[i] = ev.name
	}
	return out
}

// ValidSettings reports why a settings document is not a JSON object
// Claude Code can read hooks from; nil when it is one.
func ValidSettings(data []byte) error {
	_, err := settingsRoot(data)
	return err
}

// WholeFile reports whether client c's config file is swarm-guard's alone
// (Copilot, opencode): uninstall removes it instead of editing it.
func WholeFile(c clients.Name) bool { return layoutOf(c).whole }

// HookCommand is the command Claude Code runs before a tool (PreToolUse):
// a one-line POSIX sh script that finds the binary by the lookup rule
// (lookup.go) and holds no machine-specific path, so the committed
// settings work for every teammate. When the binary is missing it blocks
// the call, instead of the exit 127 Claude Code would let through: it
// answers as the binary answers a denial, a deny JSON on stdout whose
// reason (MissingReason) is what the model reads, right after the
// client's own "PreToolUse:Bash hook error: " (exit 2 alone hands the
// model the whole hook command in front of its stderr), with exit 2 and
// the install hint on stderr as well, so a client that ignores the JSON
// still blocks. Only PreToolUse gets the JSON: its hookEventName must
// match the event, and a mismatched one is an error the client reports.
//
// Claude Code runs a hook command as `/bin/sh -c COMMAND` whatever $SHELL
// says (measured with 2.0.0, 2.1.138, 2.1.139 and 2.1.330, $SHELL set to
// zsh, bash or a logging script), so the script is the command itself: one
// shell between the client and the binary, which it replaces (exec).
// Earlier installs wrapped it in a second `sh -c '...'`, which cost a shell
// start-up on every hook call; IsLauncher still recognises that form, so
// install replaces it and uninstall removes it.
//
// It is deliberately not exec form ("command" plus "args", no shell): a
// client before 2.1.139 ignores "args" and runs "command" alone through
// /bin/sh, so `"command": "sh"` would read the hook's JSON on stdin as a
// script (measured with 2.0.0 and 2.1.138: a $(...) or `...` inside the
// agent's command ran), and `"command": "swarm-guard"` would lose the lookup
// rule and, before 2.1.295, fail open when the binary is missing.
func HookCommand() string { return denyingLauncherScript("hook") }

// FailureHookCommand is the command of PostToolUseFailure: the launcher
// without the deny JSON, which would name another event. Missing binary:
// exit 2 with the install hint.
func FailureHookCommand() string { return launcherScript("hook") }

// MissingReason is what the model reads when the PreToolUse launcher finds
// no binary: swarm-guard's own message, cause and fix, in the form of every
// denial. Like InstallHint it holds no quote, backslash, backtick or
// dollar: it sits inside double quotes in sh and inside a JSON string.
const MissingReason = "swarm-guard blocked this call: swarm-guard is not found on PATH, in node_modules/.bin, ~/.local/bin or ~/go/bin, so nothing can be checked. Instead: install it (make install in the swarm-guard source puts it in ~/go/bin), then run swarm-guard doctor"

// missingDenyJSON is the PreToolUse deny answer the launcher prints when
// no binary is found: the JSON hooks/claude writes for a denial.
const missingDenyJSON = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + MissingReason + `"}}`

// denyingLauncherScript is launcherScript for PreToolUse: a missing
// binary also prints missingDenyJSON. The JSON goes in double quotes, so
// the launcher holds no single quote, as every launcher: it can be wrapped
// in sh -c '...' as earlier installs did.
func denyingLauncherScript(args string) string {
	return LookupScript(`${CLAUDE_PROJECT_DIR:-.}`) + `; [ -x "$sg" ] && exec "$sg" ` + args + `; echo "` + strings.ReplaceAll(missingDenyJSON, `"`, `\"`) + `"; echo "` + InstallHint + `" >&2; exit 2`
}

// PostHookCommand is the command of PostToolUse: the same lookup, then
// swarm-guard-post next to the swarm-guard found, which answers a
// PostToolUse after a Bash command PreToolUse proved writes nothing
// without starting the full binary, and hands every other event to it
// (hooks/secretscan/posthook). Where there is no swarm-guard-post next to
// it (the npm launcher in node_modules/.bin, a symbolic link on PATH
// without its sibling), the full hook runs, as before; nothing found blocks.
// PostToolUseFailure keeps the full hook (FailureHookCommand):
// swarm-guard-post would only hand it over, one exec more.
func PostHookCommand() string { return postLauncherScript("") }

// postLauncherScript is the launcher running `swarm-guard-post FLAG`, else
// `swarm-guard hook FLAG`.
func postLauncherScript(flag string) string {
	post, full := `exec "$sg-post"`, "hook"
	if flag != "" {
		post, full = post+" "+flag, full+" "+flag
	}
	return LookupScript(`${CLAUDE_PROJECT_DIR:-.}`) + `; [ -x "$sg" ] && [ -x "$sg-post" ] && ` + post + `; [ -x "$sg" ] && exec "$sg" ` + full + `; echo "` + InstallHint + `" >&2; exit 2`
}

// HookCommandFor is the command install registers for a hook event.
func HookCommandFor(event string) string {
	switch event {
	case "PreToolUse":
		return HookCommand()
	case "PostToolUse":
		return PostHookCommand()
	}
	return FailureHookCommand()
}

// launcherScript is the launcher running `swarm-guard ARGS`.
func launcherScript(args string) string {
	return LookupScript(`${CLAUDE_PROJECT_DIR:-.}`) + `; [ -x "$sg" ] && exec "$sg" ` + args + `; echo "` + InstallHint + `" >&2; exit 2`
}

// IsOurHook reports whether a hook command is one swarm-guard installed:
// the launcher, or any "<...swarm-guard...> hook" command (an earlier
// install that wrote an absolute path).
func IsOurHook(command, binary string) bool {
	c := strings.TrimSpace(command)
	if c == HookCommand() || IsLauncher(c) || strings.Contains(c, clientLauncherMark) {
		return true
	}
	return strings.Contains(c, "swarm-guard") && (strings.HasSuffix(c, " hook") || strings.Contains(c, " hook --client "))
}

// MergeSettings adds swarm-guard's hooks to a settings document (nil: none
// yet), replacing earlier swarm-guard entries and keeping everything else.
func MergeSettings(old []byte, binary string, onFailureBlock bool) ([]byte, error) {
	return mergeSettingsWith(old, binary, onFailureBlock, nil)
}

// mergeSettingsWith is MergeSettings with the command of some events given
// (commands[event]); HookCommandFor for the others.
func mergeSettingsWith(old []byte, binary string, onFailureBlock bool, commands map[string]string) ([]byte, error) {
	root, err := settingsRoot(old)
	if err != nil {
		return nil, err
	}
	removeOurHooks(root, binary)
	hooks, err := objectAt(root, "hooks")
	if err != nil {
		return nil, err
	}
	for _, ev := range claudeEvents {
		handler := newObject()
		handler.set("type", "command")
		command := HookCommandFor(ev.name)
		if c, ok := commands[ev.name]; ok {
			command = c
		}
		handler.set("command", command)
		handler.set("timeout", json.Number(fmt.Sprint(ev.timeout)))
		if onFailureBlock {
			handler.set("onFailure", "block")
		}
		group := newObject()
		group.set("matcher", "*")
		group.set("hooks", []any{handler})
		list, _ := hooks.get(ev.name)
		groups, ok := list.([]any)
		if list != nil && !ok {
			return nil, fmt.Errorf("hooks.%s is not a list; fix .claude/settings.json by hand", ev.name)
		}
		hooks.set(ev.name, append(groups, group))
	}
	return marshalJSON(root), nil
}

// RemoveSettings drops swarm-guard's hooks from a settings document,
// removing containers that only held them.
func RemoveSettings(old []byte, binary string) ([]byte, error) {
	root, err := settingsRoot(old)
	if err != nil {
		return nil, err
	}
	removeOurHooks(root, binary)
	return marshalJSON(root), nil
}

func settingsRoot(old []byte) (*object, error) {
	if len(strings.TrimSpace(string(old))) == 0 {
		return newObject(), nil
	}
	v, err := parseJSON(old)
	if err != nil {
		return nil, fmt.Errorf("the settings file is not valid JSON (%v); fix it or move it away, then run install again", err)
	}
	root, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("the settings file is not a JSON object")
	}
	return root, nil
}

func objectAt(o *object, key string) (*object, error) {
	v, ok := o.get(key)
	if !ok {
		n := newObject()
		o.set(key, n)
		return n, nil
	}
	obj, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("%q in the settings file is not an object", key)
	}
	return obj, nil
}

// removeOurHooks deletes swarm-guard handlers everywhere under "hooks",
// then matcher groups and event lists that became empty because of it.
func removeOurHooks(root *object, binary string) {
	v, ok := root.get("hooks")
	if !ok {
		return
	}
	hooks, ok := v.(*object)
	if !ok {
		return
	}
	removeOurHandlers(hooks, binary)
	if len(hooks.keys) == 0 {
		root.del("hooks")
	}
}

// removeOurHandlers deletes swarm-guard handlers from an object of event
// lists (Claude Code's "hooks", or a Droid hooks.json itself), then the
// matcher groups and event lists that became empty because of it.
func removeOurHandlers(hooks *object, binary string) {
	for _, ev := range append([]string(nil), hooks.keys...) {
		groups, ok := hooks.vals[ev].([]any)
		if !ok {
			continue
		}
		var kept []any
		for _, g := range groups {
			grp, ok := g.(*object)
			if !ok {
				kept = append(kept, g)
				continue
			}
			hv, _ := grp.get("hooks")
			handlers, ok := hv.([]any)
			if !ok {
				kept = append(kept, g)
				continue
			}
			var keepHandlers []any
			for _, h := range handlers {
				if ho, ok := h.(*object); ok {
					if c, _ := ho.get("command"); IsOurHook(fmt.Sprint(c), binary) {
						continue
					}
				}
				keepHandlers = append(keepHandlers, h)
			}
			if len(keepHandlers) == 0 && len(handlers) > 0 {
				continue // the group held only swarm-guard
			}
			grp.set("hooks", keepHandlers)
			kept = append(kept, grp)
		}
		if len(kept) == 0 && len(groups) > 0 {
			hooks.del(ev)
			continue
		}
		hooks.set(ev, kept)
	}
}

// HasOurHooks reports whether a settings document runs binary for every
// event swarm-guard needs.
func HasOurHooks(data []byte, binary string) (bool, error) {
	root, err := settingsRoot(data)
	if err != nil {
		return false, err
	}
	hv, _ := root.get("hooks")
	hooks, ok := hv.(*object)
	if !ok {
		return false, nil
	}
	for _, ev := range claudeEvents {
		found := false
		groups, _ := hooks.vals[ev.name].([]any)
		for _, g := range groups {
			grp, _ := g.(*object)
			if grp == nil {
				continue
			}
			hl, _ := grp.get("hooks")
			handlers, _ := hl.([]any)
			for _, h := range handlers {
				if ho, ok := h.(*object); ok {
					if c, _ := ho.get("command"); fmt.Sprint(c) == HookCommandFor(ev.name) {
						found = true
					}
				}
			}
		}
		if !found {
			return false, nil
		}
	}
	return true, nil
}

// HasAnyOurHooks reports whether a settings document runs any swarm-guard
// hook, from whatever binary.
func HasAnyOurHooks(data []byte) bool {
	return len(OurHookCommands(data)) > 0
}

// OurHookCommands returns, per hook event, the swarm-guard commands a
// settings document runs; nil when it is not valid JSON.
func OurHookCommands(data []byte) map[string][]string {
	out := map[string][]string{}
	eachOurHandler(data, func(event, command string, _ *object) {
		out[event] = append(out[event], command)
	})
	return out
}

// eachOurHandler calls fn for every swarm-guard handler in a settings
// document, with its event and command; nothing for a document that does
// not parse.
func eachOurHandler(data []byte, fn func(event, command string, handler *object)) {
	root, err := settingsRoot(data)
	if err != nil {
		return
	}
	hv, _ := root.get("hooks")
	hooks, _ := hv.(*object)
	if hooks == nil {
		return
	}
	for _, ev := range hooks.keys {
		groups, _ := hooks.vals[ev].([]any)
		for _, g := range groups {
			grp, _ := g.(*object)
			if grp == nil {
				continue
			}
			hl, _ := grp.get("hooks")
			handlers, _ := hl.([]any)
			for _, h := range handlers {
				ho, _ := h.(*object)
				if ho == nil {
					continue
				}
				if c, _ := ho.get("command"); c != nil {
					if cmd, ok := c.(string); ok && IsOurHook(cmd, "") {
						fn(ev, cmd, ho)
					}
				}
			}
		}
	}
}

// IsEmptyObject reports whether a marshalled settings document is {}.
func IsEmptyObject(data []byte) bool { return strings.TrimSpace(string(data)) == "{}" }

// RunSettings is a settings document holding only swarm-guard's hooks:
// swarm-guard run passes it to claude with --settings, so the agent runs
// the guard even when the repository's .claude/settings.json lost it.
// Claude Code runs an identical hook command from several files once, so
// where project (the content of the worktree's .claude/settings.json, nil
// when there is none) runs swarm-guard through a launcher of an earlier
// form, the document uses that same command for the event: otherwise the
// client would start the hook twice per event (measured with 2.1.330).
// Only a launcher is reused: it finds the binary by the lookup rule and
// blocks when it is missing, so reusing it weakens nothing.
func RunSettings(binary string, onFailureBlock bool, project []byte) ([]byte, error) {
	commands := map[string]string{}
	eachOurHandler(project, func(event, command string, _ *object) {
		if _, seen := commands[event]; !seen && IsLauncher(command) {
			commands[event] = command
		}
	})
	return mergeSettingsWith(nil, binary, onFailureBlock, commands)
}

// OnFailureBlock reports whether a settings document has swarm-guard
// handlers and every one of them says "onFailure": "block". install --on-failure
// auto keeps that choice, so a teammate with another Claude Code version does
// not rewrite the committed file.
func OnFailureBlock(data []byte) bool {
	seen, all := false, true
	eachOurHandler(data, func(_, _ string, handler *object) {
		seen = true
		if f, _ := handler.get("onFailure"); f != "block" {
			all = false
		}
	})
	return seen && all
}
