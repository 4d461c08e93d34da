package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookMode is what a run's hooks are.
type hookMode int

const (
	hooksGuard hookMode = iota // swarm-guard, as installed for the client
	hooksNoop                  // `true` on the same events: the client's own cost of a hook
)

// client is one agent client under test: where its executable comes from,
// how it is pointed at the stand-in, how its hooks are configured and how
// the scenarios' abstract calls become its own tool calls.
type client struct {
	name string
	// env names the variable make e2e-clients sets to the executable.
	env string
	// installName is the value for swarm-guard install --client.
	installName string
	// shell and write turn a scenario's call into the client's tool call.
	shell func(command string) Call
	write func(path, content string) Call
	// setup writes the client's user configuration (under the world's
	// HOME) pointing at the stand-in.
	setup func(t *testing.T, w *world, standin string)
	// hooks writes the project's hook configuration by hand, for pre and
	// post commands (used for the no-op runs, and for the guard when
	// swarm-guard install does not know the client).
	hooks func(t *testing.T, w *world, pre, post string)
	// command is the headless invocation and its extra environment.
	command func(w *world, standin, prompt string, mode hookMode) (args, env []string)
	// telemetry are the outside hosts the client is known to try (and the
	// proxy refuses): reported, not failed. Any other host fails the run.
	telemetry []string
	// serial: this client's scenario runs go one at a time. Qwen Code
	// 0.24.4 runs finished the script and then did not exit for minutes,
	// two at once more often than one; the stand-in closing every
	// connection (see ServeHTTP) cured the single run, the pair was not
	// tried again.
	serial bool
}

// claudeShaped is the Claude Code hooks layout (Codex, Qwen Code and
// Droid take it; Droid without the "hooks" wrapper).
func claudeShaped(pre, post string, timeoutSeconds int, wrapped bool) []byte {
	events := map[string]any{
		"PreToolUse":  []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": pre, "timeout": timeoutSeconds}}}},
		"PostToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": post, "timeout": timeoutSeconds * 2}}}},
	}
	var doc any = events
	if wrapped {
		doc = map[string]any{"hooks": events}
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n')
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, data, 0o644))
}

func jsonBytes(v any) []byte {
	b, _ := json.MarshalIndent(v, "", "  ")
	return append(b, '\n')
}

const prompt = "Follow the script."

var clients = []client{
	{
		name: "codex", env: "SWARM_GUARD_E2E_CODEX", installName: "codex",
		shell: func(c string) Call { return Call{Tool: "exec_command", Args: map[string]any{"cmd": c}} },
		write: func(p, content string) Call {
			return Call{Tool: "apply_patch", Freeform: "*** Begin Patch\n*** Add File: " + p + "\n" + plusLines(content) + "*** End Patch\n"}
		},
		setup: func(t *testing.T, w *world, standin string) {
			writeFile(t, filepath.Join(w.Home, ".codex", "config.toml"), []byte(fmt.Sprintf(`model = "gpt-5.5"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "%s/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
supports_websockets = false

[analytics]
enabled = false

[features]
plugins = false

[projects.%q]
trust_level = "trusted"
`, standin, w.Work)))
		},
		hooks: func(t *testing.T, w *world, pre, post string) {
			writeFile(t, filepath.Join(w.Work, ".codex", "hooks.json"), claudeShaped(pre, post, 30, true))
		},
		command: func(w *world, standin, prompt string, mode hookMode) ([]string, []string) {
			// A project hook that is not hash-trusted is skipped silently by
			// codex exec; install cannot approve it (only codex can), and
			// swarm-guard run -- codex exec passes this flag too.
			args := []string{"exec", "--json", "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust"}
			return append(args, prompt), []string{"MOCK_API_KEY=sk-fake-mock-key"}
		},
	},
	{
		name: "gemini", env: "SWARM_GUARD_E2E_GEMINI", installName: "gemini",
		shell: func(c string) Call {
			return Call{Tool: "run_shell_command", Args: map[string]any{"command": c, "description": "scripted step"}}
		},
		write: func(p, content string) Call {
			return Call{Tool: "write_file", Args: map[string]any{"file_path": p, "content": content}}
		},
		setup: func(t *testing.T, w *world, standin string) {
			writeFile(t, filepath.Join(w.Home, ".gemini", "settings.json"), jsonBytes(map[string]any{
				"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
				"privacy":   map[string]any{"usageStatisticsEnabled": false},
				"telemetry": map[string]any{"enabled": false},
				"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
			}))
		},
		hooks: func(t *testing.T, w *world, pre, post string) {
			hook := func(name, cmd string) []any {
				return []any{map[string]any{"matcher": ".*", "hooks": []any{map[string]any{"name": name, "type": "command", "command": cmd, "timeout": 30000}}}}
			}
			writeFile(t, filepath.Join(w.Work, ".gemini", "settings.json"), jsonBytes(map[string]any{
				"hooks": map[string]any{"BeforeTool": hook("swarm-guard", pre), "AfterTool": hook("swarm-guard-post", post)},
			}))
		},
		command: func(w *world, standin, prompt string, mode hookMode) ([]string, []string) {
			return []string{"-p", prompt, "--approval-mode", "yolo"}, []string{
				"GEMINI_API_KEY=fake-gemini-key", "GOOGLE_GEMINI_BASE_URL=" + standin, "GEMINI_CLI_TRUST_WORKSPACE=true",
				// One node process, not a second one started with a larger heap.
				"GEMINI_CLI_NO_RELAUNCH=true",
			}
		},
	},
	{
		name: "copilot", env: "SWARM_GUARD_E2E_COPILOT", installName: "copilot",
		shell: func(c string) Call {
			return Call{Tool: "bash", Args: map[string]any{"command": c, "description": "scripted step"}}
		},
		write: func(p, content string) Call {
			return Call{Tool: "create", Args: map[string]any{"path": p, "file_text": content}}
		},
		setup: func(t *testing.T, w *world, standin string) {
			// On its first run Copilot CLI unpacks about 200 MB of its own
			// code under ~/.cache/copilot/pkg: make e2e-clients does that once
			// (SWARM_GUARD_E2E_COPILOT_PKG) and every HOME links to it.
			if pkg := os.Getenv("SWARM_GUARD_E2E_COPILOT_PKG"); pkg != "" {
				must(t, os.MkdirAll(filepath.Join(w.Home, ".cache", "copilot"), 0o755))
				link := filepath.Join(w.Home, ".cache", "copilot", "pkg")
				if _, err := os.Lstat(link); err != nil {
					must(t, os.Symlink(pkg, link))
				}
			}
		},
		hooks: func(t *testing.T, w *world, pre, post string) {
			// Copilot CLI reads the Claude Code layout of .claude/settings.json.
			writeFile(t, filepath.Join(w.Work, ".claude", "settings.json"), claudeShaped(pre, post, 30, true))
		},
		command: func(w *world, standin, prompt string, mode hookMode) ([]string, []string) {
			// Repository hooks run only in a trusted folder (else they are
			// skipped silently); swarm-guard run -- copilot adds this flag too.
			args := []string{"-p", prompt, "--allow-all-tools", "--no-ask-user", "--trust-folder"}
			return args, []string{
				"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + standin + "/v1",
				"COPILOT_PROVIDER_API_KEY=sk-fake-copilot", "COPILOT_MODEL=mock-model",
			}
		},
	},
	{
		name: "opencode", env: "SWARM_GUARD_E2E_OPENCODE", installName: "opencode",
		shell: func(c string) Call {
			return Call{Tool: "bash", Args: map[string]any{"command": c, "description": "scripted step"}}
		},
		write: func(p, content string) Call {
			return Call{Tool: "write", Args: map[string]any{"filePath": p, "content": content}}
		},
		setup: func(t *testing.T, w *world, standin string) {
			writeFile(t, filepath.Join(w.Home, ".config", "opencode", "opencode.json"), jsonBytes(map[string]any{
				"provider": map[string]any{"mock": map[string]any{
					"npm": "@ai-sdk/openai-compatible", "name": "Mock",
					"options": map[string]any{"baseURL": standin + "/v1", "apiKey": "sk-fake-opencode"},
					"models":  map[string]any{"mock-model": map[string]any{"name": "Mock Model", "tool_call": true}},
				}},
				"model": "mock/mock-model", "autoupdate": false, "share": "disabled",
			}))
		},
		hooks: func(t *testing.T, w *world, pre, post string) {
			writeFile(t, filepath.Join(w.Work, ".opencode", "plugins", "swarm-guard.js"), []byte(opencodePlugin(pre, post)))
		},
		command: func(w *world, standin, prompt string, mode hookMode) ([]string, []string) {
			return []string{"run", "--auto", "-m", "mock/mock-model", prompt}, []string{
				"OPENCODE_DISABLE_MODELS_FETCH=true", "OPENCODE_DISABLE_AUTOUPDATE=true",
			}
		},
		// The plugin's dependency install (npm) at start-up.
		telemetry: []string{"registry.npmjs.org:443"},
	},
	{
		name: "qwen", env: "SWARM_GUARD_E2E_QWEN", installName: "qwen", serial: true,
		shell: func(c string) Call {
			return Call{Tool: "run_shell_command", Args: map[string]any{"command": c, "description": "scripted step", "is_background": false}}
		},
		write: func(p, content string) Call {
			return Call{Tool: "write_file", Args: map[string]any{"file_path": p, "content": content}}
		},
		setup: func(t *testing.T, w *world, standin string) {
			writeFile(t, filepath.Join(w.Home, ".qwen", "settings.json"), jsonBytes(map[string]any{
				"security":        map[string]any{"auth": map[string]any{"selectedType": "openai"}},
				"privacy":         map[string]any{"usageStatisticsEnabled": false},
				"telemetry":       map[string]any{"enabled": false},
				"general":         map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
				"usageStatistics": false,
			}))
		},
		hooks: func(t *testing.T, w *world, pre, post string) {
			writeFile(t, filepath.Join(w.Work, ".qwen", "settings.json"), claudeShaped(pre, post, 30, true))
		},
		command: func(w *world, standin, prompt string, mode hookMode) ([]string, []string) {
			return []string{"-p", prompt, "--yolo"}, []string{
				"OPENAI_API_KEY=sk-fake-qwen", "OPENAI_BASE_URL=" + standin + "/v1", "OPENAI_MODEL=mock-model",
			}
		},
	},
	{
		name: "droid", env: "SWARM_GUARD_E2E_DROID", installName: "droid",
		shell: func(c string) Call {
			// Droid rejects an Execute call without its risk fields.
			return Call{Tool: "Execute", Args: map[string]any{"command": c, "riskLevelReason": "A scripted step of the test.", "riskLevel": "low"}}
		},
		write: func(p, content string) Call {
			return Call{Tool: "Create", Args: map[string]any{"file_path": p, "content": content}}
		},
		setup: func(t *testing.T, w *world, standin string) {
			writeFile(t, filepath.Join(w.Home, ".factory", "settings.json"), jsonBytes(map[string]any{
				"customModels": []any{map[string]any{
					"model": "mock-model", "displayName": "Mock", "baseUrl": standin + "/v1", "apiKey": "sk-fake-droid",
					"provider": "generic-chat-completion-api", "maxOutputTokens": 4096,
				}},
				// Droid-Shield refuses a git push by itself, before any
				// hook: off, so that the test proves the hook's denial.
				"general":           map[string]any{"enableDroidShield": false},
				"enableDroidShield": false,
			}))
		},
		hooks: func(t *testing.T, w *world, pre, post string) {
			writeFile(t, filepath.Join(w.Work, ".factory", "hooks.json"), claudeShaped(pre, post, 30, false))
		},
		command: func(w *world, standin, prompt string, mode hookMode) ([]string, []string) {
			return []string{"exec", "--auto", "high", "-m", "custom:Mock-0", prompt}, nil
		},
		telemetry: []string{"api.factory.ai:443", "telemetry.factory.ai:443"},
	},
}

// plusLines prefixes every line with "+", as an apply_patch Add File body.
func plusLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
	}
	return b.String()
}

// opencodePlugin is a hand-written opencode adapter (opencode has no
// command hooks): it runs the hook commands with a Claude-shaped payload
// and throws on a denial or on any failure of the guard (fail closed).
func opencodePlugin(pre, post string) string {
	preJS, _ := json.Marshal(pre)
	postJS, _ := json.Marshal(post)
	return `// swarm-guard e2e: a hand-written adapter until swarm-guard install --client opencode writes its own.
import { spawnSync } from "node:child_process";
const PRE = ` + string(preJS) + `;
const POST = ` + string(postJS) + `;
const names = { bash: "Bash", edit: "Edit", write: "Write", read: "Read" };
function input(tool, args) {
  if (tool === "write") return { file_path: args.filePath, content: args.content };
  if (tool === "edit") return { file_path: args.filePath, old_string: args.oldString, new_string: args.newString };
  if (tool === "read") return { file_path: args.filePath };
  return args;
}
function run(cmd, payload, dir) {
  return spawnSync("/bin/sh", ["-c", cmd], { input: JSON.stringify(payload), encoding: "utf8", cwd: dir, timeout: 30000,
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir } });
}
export const SwarmGuard = async ({ directory }) => ({
  "tool.execute.before": async (inp, out) => {
    const r = run(PRE, { hook_event_name: "PreToolUse", session_id: inp.sessionID, tool_use_id: inp.callID, cwd: directory,
      tool_name: names[inp.tool] ?? inp.tool, tool_input: input(inp.tool, out.args) }, directory);
    if (r.error || r.status !== 0) throw new Error((r.stderr || "").trim() || "swarm-guard exited " + (r.status ?? r.error));
    if ((r.stdout || "").trim()) {
      const o = JSON.parse(r.stdout);
      const h = o.hookSpecificOutput || {};
      if (h.permissionDecision === "deny" || o.decision === "block") throw new Error(h.permissionDecisionReason || o.reason || "denied");
    }
  },
  "tool.execute.after": async (inp, out) => {
    const r = run(POST, { hook_event_name: "PostToolUse", session_id: inp.sessionID, tool_use_id: inp.callID, cwd: directory,
      tool_name: names[inp.tool] ?? inp.tool, tool_input: input(inp.tool, inp.args),
      tool_response: inp.tool === "bash" ? { stdout: String(out.output ?? ""), stderr: "" } : out.output }, directory);
    if (r.error || r.status !== 0) { out.output = "swarm-guard: " + ((r.stderr || "").trim() || "the post hook failed"); return; }
    if ((r.stdout || "").trim()) {
      const o = JSON.parse(r.stdout);
      if (o.decision === "block") {
        const u = (o.hookSpecificOutput || {}).updatedToolOutput;
        out.output = u && typeof u === "object" ? [u.stdout, u.stderr].filter(Boolean).join("\n") + "\n" + o.reason : o.reason;
      }
    }
  },
});
`
}

// clientPath is the executable make e2e-clients installed for c, or ""
// with the reason the client is not available.
func clientPath(c client) (string, string) {
	p := os.Getenv(c.env)
	if p == "" {
		return "", fmt.Sprintf("%s is not set: make e2e-clients installs %s and sets it (see its output for why it did not)", c.env, c.name)
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Sprintf("%s=%s: %v", c.env, p, err)
	}
	return p, ""
}
