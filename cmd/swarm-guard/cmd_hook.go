package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/claude"
	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/watch"
	"github.com/swarm-guard/swarm-guard/install"
)

// hookDeadline bounds a decision of hook and check (a secret scan before
// a write takes nine tenths of it); 0 means decide.DefaultDeadline, one
// second. Only the test binary changes it (deadline_test.go): the product
// has no switch for it.
var hookDeadline time.Duration

func init() {
	commands = append(commands, &command{
		name:    "hook",
		summary: "answer one Claude Code hook event (JSON on stdin); run by Claude Code",
		usage: `Usage: swarm-guard hook [--plugin]
       swarm-guard hook --client NAME [--post]

Reads one Claude Code hook event as JSON on stdin. A blocked tool call gets
exit code 2, its reason on stderr and, on PreToolUse, the permissionDecision
"deny" JSON on stdout, whose reason is what the model reads; otherwise the
exit code is 0 and stdout is empty (or holds the JSON of an "ask" or a
warning). After a tool, what the agent must repair is additionalContext
JSON, exit 0. Installed by
swarm-guard install; not meant to be run by hand. --plugin is how the
Claude Code plugin runs it: it does nothing when the project's
.claude/settings.json already runs swarm-guard for the event.

--client codex|gemini|copilot|opencode|qwen|droid reads that client's hook
event instead and answers in its format (install --client writes the
command); --post marks the client's after-tool hook. Without --client, an
event that is plainly another client's (Gemini's BeforeTool, Copilot's
toolName, Codex's turn_id, Qwen's run_shell_command, Droid's Execute) is
read as that client's.`,
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
	client, post, args, err := hookClient(args)
	if err != nil {
		fmt.Fprintf(c.stderr, "swarm-guard blocked this call (rule bad-input): %v; run `swarm-guard install --client NAME` to rewrite the hook command.\n", err)
		return silentExit(exitBlock)
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
	decide := func(stdin io.Reader) clients.Answer {
		return clients.Answer(claude.Handle(claude.Runtime{Stdin: stdin, Getenv: c.getenv, Now: c.now, Executables: exes, Deadline: hookDeadline}))
	}
	stdin := c.stdin
	if client != clients.Claude {
		data, err := io.ReadAll(io.LimitReader(c.stdin, claude.MaxInputBytes+1))
		if err != nil {
			return writeAnswer(c, decide(bytes.NewReader(nil)))
		}
		if client == "" && clients.MayBeOther(data) {
			client = clients.Detect(data)
			if cwd, ok := clients.CopilotClaudeFormat(data); ok && copilotHooksInstalled(cwd) {
				// Copilot CLI runs .claude/settings.json's hooks
				// and the hook file of its own an earlier install
				// wrote for the same call: that one judges it
				// (install --client copilot removes it).
				return nil
			}
		}
		if client != "" && client != clients.Claude {
			// warn mode's warnings, carried from a before-tool hook
			// to the after-tool hook where the client reads them.
			carry := clients.FileCarry{Dir: filepath.Join(audit.Dir("", c.getenv), "carry"), Now: c.now}
			return writeAnswer(c, clients.Handle(client, post, data, func(ev []byte) clients.Answer {
				return decide(bytes.NewReader(ev))
			}, carry))
		}
		stdin = bytes.NewReader(data)
	}
	return writeAnswer(c, decide(stdin))
}

func writeAnswer(c *cli, a clients.Answer) error {
	fmt.Fprint(c.stdout, a.Stdout)
	fmt.Fprint(c.stderr, a.Stderr)
	return silentExit(a.Exit)
}

// hookClient takes --client NAME (or --client=NAME) and --post out of the
// hook's arguments. No --client leaves the client "" (detect it).
func hookClient(args []string) (client clients.Name, post bool, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--post":
			post = true
		case a == "--client" && i+1 < len(args):
			i++
			if client, err = clients.Parse(args[i]); err != nil {
				return "", false, nil, err
			}
		case strings.HasPrefix(a, "--client="):
			if client, err = clients.Parse(strings.TrimPrefix(a, "--client=")); err != nil {
				return "", false, nil, err
			}
		default:
			rest = append(rest, a)
		}
	}
	if post && client == "" {
		return "", false, nil, fmt.Errorf("--post goes with --client")
	}
	return client, post, rest, nil
}

// copilotHooksInstalled reports whether the project holding dir has
// the Copilot CLI hook file earlier installs wrote
// (.github/hooks/swarm-guard.json, a guard file the agent may not
// change), looking up to the worktree's root. Copilot loads it and
// .claude/settings.json under the same condition (a trusted folder), so
// where it is the Claude-format call is its to judge: one decision and
// one audit record per call until install --client copilot removes it.
func copilotHooksInstalled(dir string) bool {
	if dir == "" || !filepath.IsAbs(dir) {
		return false
	}
	for {
		if clientconfig.CopilotHooksIn(dir) {
			return true
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return false
		}
		up := filepath.Dir(dir)
		if up == dir {
			return false
		}
		dir = up
	}
}
