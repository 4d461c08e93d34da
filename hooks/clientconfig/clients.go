package clientconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/clients"
)

// The hooks of agent clients other than Claude Code (install --client):
// each client's committed project config runs `swarm-guard hook --client
// NAME` through a launcher with the lookup rule of the Claude Code hooks,
// and the launcher fails closed in the client's own terms. What each client
// does with a hook that cannot run differs (agent-clients.md, measured):
// Codex lets the command run when the hook is missing (127) or exits 1,
// Gemini CLI allows on exit 1, Qwen Code on any exit but 2; exit 2 with a
// reason on stderr blocks in every one of them. So the launcher never
// execs the binary: it waits for it and turns every exit but 0 and 2 (a
// crash, a kill, a missing binary) into exit 2 with a line on stderr. Only
// a hook the client times out still lets the call through (Codex, Gemini
// and Copilot fail open on a timeout); the timeouts written here are 30 s
// before a tool and 60 s after it, against a decision that gives up after
// one second.

// clientLauncherMark is in every client launcher: how uninstall and doctor
// recognise it.
const clientLauncherMark = `"$sg" hook --client `

// ClientScript is the POSIX sh that runs client c's hook (post: its
// after-tool hook) by the lookup rule and fails closed.
func ClientScript(c clients.Name, post bool) string {
	args := "hook --client " + string(c)
	if post {
		args += " --post"
	}
	return LookupScript(`${CLAUDE_PROJECT_DIR:-.}`) + `; [ -x "$sg" ] || { echo "` + InstallHint + `" >&2; exit 2; }; "$sg" ` + args +
		`; rc=$?; [ $rc -eq 0 ] || [ $rc -eq 2 ] || { echo "swarm-guard: the hook failed (exit $rc), so this call is blocked; run swarm-guard doctor" >&2; rc=2; }; exit $rc`
}

// ClientHookCommand is the hook command written into client c's config:
// the script under sh -c, because Codex runs a hook command with the
// user's login shell ($SHELL -lc), which may not speak POSIX sh (fish): a
// script that fails to parse exits 127, which Codex lets through.
func ClientHookCommand(c clients.Name, post bool) string {
	return "sh -c '" + ClientScript(c, post) + "'"
}

// ClientConfigPath is the committed file whose hooks guard client c. For
// Copilot CLI it is Claude Code's .claude/settings.json, which every
// install writes: Copilot runs its hooks and honours every answer the
// guard needs there (a denial with its reason, the output withheld after a
// tool, a warning), so a file of Copilot's own would only start a second
// swarm-guard for every call (CopilotHooksPath).
func ClientConfigPath(root string, c clients.Name) string {
	switch c {
	case clients.Codex:
		return filepath.Join(root, ".codex", "hooks.json")
	case clients.Gemini:
		return filepath.Join(root, ".gemini", "settings.json")
	case clients.OpenCode:
		return filepath.Join(root, ".opencode", "plugins", "swarm-guard.js")
	case clients.Qwen:
		return filepath.Join(root, ".qwen", "settings.json")
	case clients.Droid:
		return filepath.Join(root, ".factory", "hooks.json")
	}
	return SettingsPath(root)
}

// CopilotHooksPath is the hook file in Copilot CLI's own format that
// installs before 2026-11-28 wrote for it. Copilot runs it and
// .claude/settings.json for every call, two swarm-guard processes where
// one judges (the Claude-format one steps aside while this file is
// there): install --client copilot now removes it, and uninstall too.
func CopilotHooksPath(root string) string {
	return filepath.Join(root, ".github", "hooks", "swarm-guard.json")
}

// HasCopilotHooks reports whether data, a file at CopilotHooksPath, runs
// swarm-guard.
func HasCopilotHooks(data []byte) bool { return hasClientLauncher(clients.Copilot, data) }

// CopilotHooksIn reports whether the worktree at root has the hook file
// of CopilotHooksPath running swarm-guard.
func CopilotHooksIn(root string) bool {
	data, err := os.ReadFile(CopilotHooksPath(root))
	return err == nil && HasCopilotHooks(data)
}

// clientEvent is one event a client's config registers.
type clientEvent struct {
	name    string
	post    bool
	timeout any // in the client's unit
}

// clientLayout says how a client's JSON config holds hooks.
type clientLayout struct {
	events  []clientEvent
	wrapped bool   // under a "hooks" member (Droid: the events are the document)
	matcher string // every tool
	named   bool   // handlers carry a "name" (Gemini)
	whole   bool   // the file is swarm-guard's alone (opencode; Copilot's CopilotHooksPath)
}

func layoutOf(c clients.Name) clientLayout {
	pre, post := clientEvent{"PreToolUse", false, 30}, clientEvent{"PostToolUse", true, 60}
	switch c {
	case clients.Codex, clients.Qwen:
		return clientLayout{events: []clientEvent{pre, post}, wrapped: true, matcher: "*"}
	case clients.Droid:
		return clientLayout{events: []clientEvent{pre, post}, matcher: "*"}
	case clients.Gemini:
		// Gemini's timeouts are milliseconds; its matchers are regular
		// expressions.
		return clientLayout{events: []clientEvent{{"BeforeTool", false, 30000}, {"AfterTool", true, 60000}}, wrapped: true, matcher: ".*", named: true}
	}
	return clientLayout{whole: true}
}

// ClientConfig is the content install writes for client c, merged into
// old (nil: no file yet) where the file is shared.
func ClientConfig(c clients.Name, old []byte) ([]byte, error) {
	switch c {
	case clients.Copilot:
		return nil, fmt.Errorf("Copilot CLI runs the Claude Code hooks of %s; it has no config of its own to write", SettingsPath("."))
	case clients.OpenCode:
		return []byte(OpenCodePlugin()), nil
	}
	l := layoutOf(c)
	root, err := settingsRoot(old)
	if err != nil {
		return nil, err
	}
	container := root
	if l.wrapped {
		if container, err = objectAt(root, "hooks"); err != nil {
			return nil, err
		}
	}
	removeOurHandlers(container, "")
	for _, ev := range l.events {
		handler := newObject()
		if l.named {
			name := "swarm-guard"
			if ev.post {
				name = "swarm-guard-post"
			}
			handler.set("name", name)
		}
		handler.set("type", "command")
		handler.set("command", ClientHookCommand(c, ev.post))
		handler.set("timeout", json.Number(fmt.Sprint(ev.timeout)))
		group := newObject()
		group.set("matcher", l.matcher)
		group.set("hooks", []any{handler})
		list, _ := container.get(ev.name)
		groups, ok := list.([]any)
		if list != nil && !ok {
			return nil, fmt.Errorf("%s is not a list; fix the file by hand", ev.name)
		}
		container.set(ev.name, append(groups, group))
	}
	return marshalJSON(root), nil
}

// StripClientConfig is a client's config without swarm-guard's hooks; nil
// when nothing of it would be left (a whole file, or an emptied JSON
// object install created).
func StripClientConfig(c clients.Name, cur []byte) ([]byte, error) {
	l := layoutOf(c)
	if l.whole {
		return nil, nil
	}
	root, err := settingsRoot(cur)
	if err != nil {
		return nil, err
	}
	if l.wrapped {
		removeOurHooks(root, "")
	} else {
		removeOurHandlers(root, "")
	}
	return marshalJSON(root), nil
}

// HasClientHooks reports whether data, client c's config, runs
// swarm-guard.
func HasClientHooks(c clients.Name, data []byte) bool {
	if c == clients.Copilot {
		return HasAnyOurHooks(data)
	}
	return hasClientLauncher(c, data)
}

// hasClientLauncher reports whether data holds the launcher of client c.
func hasClientLauncher(c clients.Name, data []byte) bool {
	// In a JSON or JavaScript string the launcher's quotes are escaped.
	return bytes.Contains(data, []byte(clientLauncherMark+string(c))) ||
		bytes.Contains(data, []byte(`"$sg\" hook --client `+string(c))) ||
		bytes.Contains(data, []byte("swarm-guard hook --client "+string(c)))
}

// ClientHooksCurrent reports whether data runs exactly the hooks this
// version writes (doctor: an older launcher is worth rewriting).
func ClientHooksCurrent(c clients.Name, data []byte) bool {
	if c == clients.Copilot {
		current, err := HasOurHooks(data, "")
		return err == nil && current
	}
	if layoutOf(c).whole {
		want, _ := ClientConfig(c, nil)
		return bytes.Equal(data, want)
	}
	for _, post := range []bool{false, true} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(ClientHookCommand(c, post))
		if !bytes.Contains(data, bytes.TrimSpace(b.Bytes())) {
			return false
		}
	}
	return true
}

// ClientProgram is the program that starts client c.
func ClientProgram(c clients.Name) string {
	if c == clients.Claude {
		return "claude"
	}
	return string(c)
}

// OpenCodePlugin is the plugin install writes to
// .opencode/plugins/swarm-guard.js: opencode has no command hooks, only
// in-process plugins. It runs the launcher with the event on stdin and
// throws (which blocks the tool; the model reads the message) on any exit
// but 0, on a spawn failure and after 30 s, so a guard that cannot run
// blocks. After a tool, {"output": TEXT} replaces what the model reads; a
// guard that fails there withholds the output. opencode names no
// transcript, but hands every plugin its message.updated events, whose
// assistant messages carry their tokens: the plugin keeps each session's,
// writes their sum to a small file before each call
// ($XDG_STATE_HOME/swarm-guard/opencode/<session>.json) and names it as
// the event's transcript_path, which [budget] max_tokens reads.
func OpenCodePlugin() string {
	pre, _ := json.Marshal(ClientScript(clients.OpenCode, false))
	post, _ := json.Marshal(ClientScript(clients.OpenCode, true))
	return `// swarm-guard's guard for opencode, written by swarm-guard install --client opencode
// (swarm-guard uninstall removes it). It runs ` + "`swarm-guard hook --client opencode`" + ` before
// and after every tool call and fails closed: a guard that is missing, crashes or
// takes over 30 s blocks the call. opencode run --pure (OPENCODE_PURE) skips plugins.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const PRE = ` + string(pre) + `;
const POST = ` + string(post) + `;

// Each session's assistant messages' tokens, by message id, from opencode's
// message.updated events. Before each call their sum goes to a small file
// the hook's [budget] max_tokens reads (opencode keeps no transcript file).
const sessions = new Map();
const usageDir = join(process.env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "swarm-guard", "opencode");

function usageFile(sessionID) {
  const messages = sessions.get(sessionID);
  if (!messages || !/^[A-Za-z0-9_-]+$/.test(sessionID)) return undefined;
  const t = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
  for (const m of messages.values()) {
    t.input += m.input || 0;
    t.output += m.output || 0;
    t.reasoning += m.reasoning || 0;
    t.cache.read += (m.cache && m.cache.read) || 0;
    t.cache.write += (m.cache && m.cache.write) || 0;
  }
  try {
    mkdirSync(usageDir, { recursive: true });
    const file = join(usageDir, sessionID + ".json");
    writeFileSync(file, JSON.stringify({ tokens: t }) + "\n");
    return file;
  } catch (e) {
    return undefined; // the budget counts this session's calls, not its tokens
  }
}

function guard(script, event, dir) {
  return spawnSync("/bin/sh", ["-c", script], {
    input: JSON.stringify(event), encoding: "utf8", cwd: dir, timeout: 30000, maxBuffer: 64 << 20,
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
  });
}

function failure(r) {
  return (r.stderr || "").trim() || (r.error ? "swarm-guard could not run: " + r.error.message : "swarm-guard exited " + r.status);
}

export const SwarmGuard = async ({ directory }) => ({
  event: async ({ event }) => {
    const m = event && event.type === "message.updated" && event.properties ? event.properties.info : undefined;
    if (!m || m.role !== "assistant" || !m.tokens || typeof m.sessionID !== "string") return;
    if (!sessions.has(m.sessionID)) sessions.set(m.sessionID, new Map());
    sessions.get(m.sessionID).set(m.id, m.tokens);
  },
  "tool.execute.before": async (input, output) => {
    const r = guard(PRE, { hook_event_name: "tool.execute.before", session_id: input.sessionID, tool_use_id: input.callID,
      cwd: directory, tool: input.tool, args: output.args, transcript_path: usageFile(input.sessionID) }, directory);
    if (r.error || r.status !== 0) throw new Error(failure(r));
  },
  "tool.execute.after": async (input, output) => {
    const text = typeof output.output === "string" ? output.output : JSON.stringify(output.output ?? "");
    const r = guard(POST, { hook_event_name: "tool.execute.after", session_id: input.sessionID, tool_use_id: input.callID,
      cwd: directory, tool: input.tool, args: input.args, output: text }, directory);
    if (r.error || r.status !== 0) {
      output.output = "[swarm-guard] the output of this call is withheld: " + failure(r);
      return;
    }
    const answer = (r.stdout || "").trim();
    if (!answer) return;
    try {
      const o = JSON.parse(answer);
      if (typeof o.output === "string") output.output = o.output;
    } catch (e) {
      output.output = "[swarm-guard] the output of this call is withheld: the guard's answer was not JSON";
    }
  },
});
`
}

// HasClientHooksIn reports whether the worktree at root has client c's
// config with swarm-guard's hooks.
func HasClientHooksIn(root string, c clients.Name) bool {
	data, err := os.ReadFile(ClientConfigPath(root, c))
	return err == nil && HasClientHooks(c, data)
}
