package install

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
)

// planClients adds the changes that install client configs.
func planClients(o Options) ([]Change, []string, error) {
	var out []Change
	var notes []string
	for _, c := range o.Clients {
		if c == clients.Claude {
			continue // the Claude Code settings are always installed
		}
		if c == clients.Copilot {
			// Copilot CLI runs the Claude Code hooks, installed above; the
			// hook file of its own an earlier install wrote would start a
			// second swarm-guard for every call.
			ch, err := planClientRemoval(o, clients.Copilot, clientconfig.CopilotHooksPath(o.Root), clientconfig.HasCopilotHooks,
				"Copilot CLI runs swarm-guard from .claude/settings.json; this file started a second swarm-guard on every call")
			if err != nil {
				return nil, nil, err
			}
			if ch != nil {
				out = append(out, *ch)
			}
			continue
		}
		p := clientconfig.ClientConfigPath(o.Root, c)
		old, err := readOptional(p)
		if err != nil {
			return nil, nil, err
		}
		data, err := clientconfig.ClientConfig(c, old)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, fileChange(p, old, data, fileMode(p, 0o644), clientSummary(c), o.StateDir))
		if c == clients.Codex {
			if ch, note := planCodexTrust(o); ch != nil {
				out = append(out, *ch)
			} else if note != "" {
				notes = append(notes, note)
			}
		}
	}
	return out, notes, nil
}

func clientSummary(c clients.Name) string {
	switch c {
	case clients.Codex:
		return "Codex hooks: PreToolUse and PostToolUse run swarm-guard hook --client codex (a crash or missing binary blocks: exit 2)"
	case clients.Gemini:
		return "Gemini CLI hooks: BeforeTool and AfterTool run swarm-guard hook --client gemini"
	case clients.OpenCode:
		return "opencode plugin: runs swarm-guard hook --client opencode before and after every tool, and blocks when it cannot"
	case clients.Qwen:
		return "Qwen Code hooks: PreToolUse and PostToolUse run swarm-guard hook --client qwen"
	case clients.Droid:
		return "Droid hooks: PreToolUse and PostToolUse run swarm-guard hook --client droid"
	}
	return ""
}

// planClientsRemoval removes swarm-guard from every client config that
// has it, restoring a file install changed byte for byte when nothing
// else changed in it since. Copilot CLI's guard is the Claude Code
// settings, which uninstall handles; an earlier install's hook file of
// Copilot's own goes too.
func planClientsRemoval(o Options) ([]Change, error) {
	var out []Change
	for _, c := range clients.Others {
		p, has, why := clientconfig.ClientConfigPath(o.Root, c), func(d []byte) bool { return clientconfig.HasClientHooks(c, d) }, "it only held swarm-guard's hooks"
		if c == clients.Copilot {
			p, has = clientconfig.CopilotHooksPath(o.Root), clientconfig.HasCopilotHooks
		}
		ch, err := planClientRemoval(o, c, p, has, why)
		if err != nil {
			return nil, err
		}
		if ch != nil {
			out = append(out, *ch)
		}
	}
	return out, nil
}

// planClientRemoval removes swarm-guard's hooks from p, client c's config
// (has tells whether a content holds them), restoring the file install
// changed when nothing else changed in it since, removing it (why) when
// nothing else is left; nil when p holds no hooks of swarm-guard.
func planClientRemoval(o Options, c clients.Name, p string, has func([]byte) bool, why string) (*Change, error) {
	cur, err := readOptional(p)
	if err != nil {
		return nil, err
	}
	if cur == nil || !has(cur) {
		return nil, nil
	}
	bk := ""
	if o.StateDir != "" {
		bk = backupPath(o.StateDir, p)
	}
	orig, err := readOptional(bk)
	if err != nil {
		return nil, err
	}
	stripped, err := clientconfig.StripClientConfig(c, cur)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if orig != nil && !has(orig) {
		origStripped, err := clientconfig.StripClientConfig(c, orig)
		if err == nil && (clientconfig.WholeFile(c) || bytes.Equal(origStripped, stripped)) {
			return &Change{Path: p, Action: "restore", Summary: "the file as it was before install",
				do: func() error {
					if err := writeAtomic(p, orig, fileMode(p, 0o644)); err != nil {
						return err
					}
					return removeBackup(bk)
				}}, nil
		}
	}
	if stripped == nil || clientconfig.IsEmptyObject(stripped) {
		return &Change{Path: p, Action: "remove", Summary: why,
			do: func() error {
				if err := os.Remove(p); err != nil {
					return fmt.Errorf("remove %s: %w", p, err)
				}
				removeEmptyDirs(filepath.Dir(p), o.Root)
				return removeBackup(bk)
			}}, nil
	}
	mode := fileMode(p, 0o644)
	return &Change{Path: p, Action: "update", Summary: "swarm-guard's hooks removed, everything else kept",
		do: func() error {
			if err := writeAtomic(p, stripped, mode); err != nil {
				return err
			}
			return removeBackup(bk)
		}}, nil
}

// removeEmptyDirs removes dir and its parents up to root while they are
// empty (.github/hooks, .opencode/plugins that install created).
func removeEmptyDirs(dir, root string) {
	for dir != root && strings.HasPrefix(dir, root+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// DetectClients lists the other clients present for a worktree: their
// project config directory exists, or their program is on PATH.
func DetectClients(root string, lookPath func(string) (string, error)) []clients.Name {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	var out []clients.Name
	for _, c := range clients.Others {
		_, err := os.Stat(ClientDir(root, c))
		if err == nil || ClientOnPath(c, lookPath) != "" {
			out = append(out, c)
		}
	}
	return out
}

// ClientNotes are what install says about the clients it guards: what
// each needs besides its config for the hooks to run at all.
func ClientNotes(cs []clients.Name, root string) []string {
	var out []string
	for _, c := range cs {
		switch c {
		case clients.Codex:
			out = append(out, "Codex runs a project's hooks only once each is approved (codex exec skips an unapproved one silently): start codex here and approve swarm-guard's hooks (/hooks); headless agents started with swarm-guard run -- codex exec ... get --dangerously-bypass-hook-trust. swarm-guard doctor checks it")
		case clients.Gemini:
			out = append(out, "Gemini CLI runs shell commands with git hooks switched off (core.hooksPath empty), so swarm-guard's hook denies a Gemini agent's git commit and git push and tells it to run them with the hooks on (unset GIT_CONFIG_COUNT; ...); in an untrusted folder Gemini refuses to start: trust this folder, or set GEMINI_CLI_TRUST_WORKSPACE=true for headless runs")
		case clients.Copilot:
			out = append(out, "Copilot CLI runs the Claude Code hooks of .claude/settings.json (one swarm-guard per call; no file of its own is needed), but skips repository hooks silently in a folder it does not trust: trust this folder when copilot asks (headless: copilot -p ... --trust-folder; swarm-guard run -- copilot ... adds it)")
		case clients.OpenCode:
			out = append(out, "opencode run --pure and OPENCODE_PURE skip every plugin, swarm-guard's too: swarm-guard run refuses them and doctor flags OPENCODE_PURE")
		case clients.Qwen:
			out = append(out, "Qwen Code loads project hooks only in a trusted folder: trust this folder when qwen asks")
		}
	}
	return out
}

func oneLineErr(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// planCodexTrust trusts the worktree in Codex's user config, which Codex
// needs before it loads the project's .codex/hooks.json at all: it
// appends [projects."ROOT"] trust_level = "trusted" and leaves every other
// byte of the file alone. A project Codex was told not to trust is left as
// it is, with a note.
func planCodexTrust(o Options) (*Change, string) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if o.Home == "" {
		return nil, ""
	}
	path := CodexConfigPath(o.Home, getenv)
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, "could not read " + path + " (" + oneLineErr(err) + "): trust this project in Codex yourself"
	}
	var cfg struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
	}
	if _, err := toml.Decode(string(old), &cfg); err != nil {
		return nil, path + " does not parse (" + oneLineErr(err) + "): fix it, then run install again so Codex trusts this project"
	}
	if p, ok := cfg.Projects[o.Root]; ok {
		if p.TrustLevel == "trusted" {
			return &Change{Path: path, Action: "unchanged", Summary: "Codex trusts this project"}, ""
		}
		return nil, fmt.Sprintf("%s sets [projects.%q] trust_level = %q, so Codex loads no hook of this project; set it to \"trusted\" if you trust it", path, o.Root, p.TrustLevel)
	}
	block := fmt.Sprintf("[projects.%q]\ntrust_level = \"trusted\"\n", o.Root)
	if len(old) > 0 {
		block = "\n" + block
		if old[len(old)-1] != '\n' {
			block = "\n" + block
		}
	}
	action := "update"
	if old == nil {
		action = "create"
	}
	return &Change{Path: path, Action: action, Summary: "Codex trusts this project, so it loads .codex/hooks.json (the line is appended; nothing else changes; uninstall keeps it)",
		do: func() error {
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				return err
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				return err
			}
			if _, err := f.WriteString(block); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		}}, ""
}
