package install

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
)

// ClientCheck is one finding of doctor about an agent client.
type ClientCheck struct {
	Status string // ok, FAIL, warn
	Detail string
	Fix    string // a command or step that works as printed
}

// ClientEnv is what the client checks read besides the worktree.
type ClientEnv struct {
	Root     string
	Home     string
	Getenv   func(string) string
	LookPath func(string) (string, error)
}

// CheckClient is doctor's view of client c in a worktree: whether its
// committed config runs swarm-guard through the current launcher, and the
// traps that make a client skip its hooks without a word (agent-clients.md):
// an untrusted Codex project or an unapproved Codex hook, a Copilot folder
// it does not trust, OPENCODE_PURE, hooks switched off in Gemini's or
// Qwen's user settings. present says the client is here at all (config
// directory or program on PATH); nothing is checked for an absent one.
func CheckClient(c clients.Name, e ClientEnv) (checks []ClientCheck, present bool) {
	if e.Getenv == nil {
		e.Getenv = os.Getenv
	}
	path := clientconfig.ClientConfigPath(e.Root, c)
	data, err := os.ReadFile(path)
	rel, _ := filepath.Rel(e.Root, path)
	configured := err == nil && clientconfig.HasClientHooks(c, data)
	_, statErr := os.Stat(clientDir(e.Root, c))
	dirPresent := statErr == nil
	onPath := e.LookPath != nil && clientOnPath(c, e.LookPath) != ""
	if !configured && !dirPresent && !onPath {
		return nil, false
	}
	fix := "swarm-guard install --client " + string(c)
	switch {
	case !configured && dirPresent:
		return []ClientCheck{{"FAIL", fmt.Sprintf("%s is set up in this repository but %s does not run swarm-guard: its agent runs unguarded", c, rel), fix}}, true
	case !configured:
		return []ClientCheck{{"warn", fmt.Sprintf("%s is on PATH but this repository does not guard it", clientconfig.ClientProgram(c)), fix}}, true
	case !clientconfig.ClientHooksCurrent(c, data):
		return []ClientCheck{{"FAIL", fmt.Sprintf("%s runs swarm-guard through an older hook command, which may let a call through when the binary is missing or crashes", rel), fix}}, true
	}
	checks = append(checks, ClientCheck{"ok", fmt.Sprintf("%s runs swarm-guard; a missing or crashing binary blocks (exit 2). %s", rel, timeoutNote(c)), ""})
	switch c {
	case clients.Codex:
		checks = append(checks, codexTrust(e)...)
	case clients.OpenCode:
		if v := e.Getenv("OPENCODE_PURE"); v != "" && v != "0" && v != "false" {
			checks = append(checks, ClientCheck{"FAIL", "OPENCODE_PURE is set here, so opencode loads no plugin and its agent runs unguarded", "unset OPENCODE_PURE (and never start opencode with --pure)"})
		}
	case clients.Gemini:
		if off := hooksDisabled(filepath.Join(geminiHome(e), "settings.json")); off != "" {
			checks = append(checks, ClientCheck{"FAIL", off + " sets hooksConfig.enabled to false, so Gemini CLI runs no hook", "remove hooksConfig.enabled from " + off})
		}
	case clients.Qwen:
		if off := hooksDisabled(filepath.Join(e.Home, ".qwen", "settings.json")); off != "" {
			checks = append(checks, ClientCheck{"FAIL", off + " sets hooksConfig.enabled to false, so Qwen Code runs no hook", "remove hooksConfig.enabled from " + off})
		}
	case clients.Copilot:
		if e.Getenv("COPILOT_ALLOW_ALL") != "true" && !copilotTrusts(e) {
			checks = append(checks, ClientCheck{"warn", "Copilot CLI skips this repository's hooks silently unless the folder is trusted, and " + filepath.Join(copilotHome(e), "config.json") + " does not list it",
				"start copilot here once and trust the folder; headless: copilot -p ... --trust-folder (swarm-guard run -- copilot adds it)"})
		}
	}
	return checks, true
}

// timeoutNote says what a client does when the hook times out.
func timeoutNote(c clients.Name) string {
	switch c {
	case clients.Codex:
		return "A hook Codex times out (30 s) lets the call through; swarm-guard gives up after 1 s and blocks"
	case clients.Gemini:
		return "A hook Gemini CLI times out (30000 ms) lets the call through; swarm-guard gives up after 1 s and blocks"
	case clients.Copilot:
		return "A hook Copilot CLI times out (30 s) lets the call through; swarm-guard gives up after 1 s and blocks"
	case clients.OpenCode:
		return "The plugin blocks a guard that takes over 30 s"
	}
	return "The hook timeout is 30 s; swarm-guard gives up after 1 s and blocks"
}

// codexTrust checks ~/.codex/config.toml ($CODEX_HOME): Codex loads a
// project's .codex layer only when the project is trusted, and runs a
// non-managed hook only when its hash is approved ([hooks.state."<file>:
// pre_tool_use:<group>:<handler>"] trusted_hash); codex exec skips either
// without a word.
func codexTrust(e ClientEnv) []ClientCheck {
	cfgPath := codexConfigPath(e.Home, e.Getenv)
	var cfg struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
		Hooks struct {
			State map[string]struct {
				TrustedHash string `toml:"trusted_hash"`
				Enabled     *bool  `toml:"enabled"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	if _, err := toml.DecodeFile(cfgPath, &cfg); err != nil && !os.IsNotExist(err) {
		return []ClientCheck{{"FAIL", cfgPath + " does not parse (" + oneLineErr(err) + "), so whether Codex trusts this project cannot be told", "fix " + cfgPath + " (codex reports the same error)"}}
	}
	var out []ClientCheck
	trusted := false
	for dir := e.Root; ; dir = filepath.Dir(dir) {
		if p, ok := cfg.Projects[dir]; ok && p.TrustLevel == "trusted" {
			trusted = true
			break
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	switch p, set := cfg.Projects[e.Root]; {
	case trusted:
	case set:
		// Someone told Codex not to trust it; install leaves that
		// decision alone, so its fix would not work here.
		out = append(out, ClientCheck{"FAIL", fmt.Sprintf("Codex was told not to trust this project (%s sets [projects.%q] trust_level = %q), so it loads no hook of .codex/hooks.json: its agent runs unguarded", cfgPath, e.Root, p.TrustLevel),
			fmt.Sprintf("if you trust this project, set trust_level = \"trusted\" under [projects.%q] in %s", e.Root, cfgPath)})
	default:
		out = append(out, ClientCheck{"FAIL", "Codex does not trust this project (" + cfgPath + " has no [projects.\"" + e.Root + "\"] trust_level = \"trusted\"), so it loads no hook of .codex/hooks.json: its agent runs unguarded",
			"swarm-guard install --client codex"})
	}
	prefix := filepath.Join(e.Root, ".codex", "hooks.json") + ":pre_tool_use:"
	approved := false
	for k, s := range cfg.Hooks.State {
		if strings.HasPrefix(k, prefix) && s.TrustedHash != "" && (s.Enabled == nil || *s.Enabled) {
			approved = true
		}
	}
	if !approved {
		out = append(out, ClientCheck{"warn", "swarm-guard's Codex hooks are not approved in " + cfgPath + ": codex exec skips an unapproved hook silently",
			"start codex here and approve swarm-guard's hooks (/hooks); run headless agents with swarm-guard run -- codex exec ..., which passes --dangerously-bypass-hook-trust"})
	}
	return out
}

func geminiHome(e ClientEnv) string {
	if h := e.Getenv("GEMINI_CLI_HOME"); h != "" {
		return filepath.Join(h, ".gemini")
	}
	return filepath.Join(e.Home, ".gemini")
}

func copilotHome(e ClientEnv) string {
	if h := e.Getenv("COPILOT_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".copilot")
}

// copilotTrusts reports whether Copilot CLI's config lists the worktree,
// or a directory above it, among its trusted folders.
func copilotTrusts(e ClientEnv) bool {
	data, err := os.ReadFile(filepath.Join(copilotHome(e), "config.json"))
	if err != nil {
		return false
	}
	var cfg struct {
		Trusted []string `json:"trusted_folders"`
	}
	if json.Unmarshal(data, &cfg) != nil {
		return false
	}
	for _, f := range cfg.Trusted {
		f = filepath.Clean(f)
		if e.Root == f || strings.HasPrefix(e.Root, f+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// hooksDisabled is path when the settings file there switches hooks off
// (hooksConfig.enabled false), else "".
func hooksDisabled(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var s struct {
		HooksConfig struct {
			Enabled *bool `json:"enabled"`
		} `json:"hooksConfig"`
	}
	if json.Unmarshal(data, &s) == nil && s.HooksConfig.Enabled != nil && !*s.HooksConfig.Enabled {
		return path
	}
	return ""
}

func oneLineErr(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// clientDir is the project directory whose presence says a repository
// uses client c.
func clientDir(root string, c clients.Name) string {
	switch c {
	case clients.Copilot:
		return filepath.Join(root, ".github", "hooks")
	case clients.OpenCode:
		return filepath.Join(root, ".opencode")
	}
	return filepath.Dir(clientconfig.ClientConfigPath(root, c))
}

// codexConfigPath is Codex's user config ($CODEX_HOME/config.toml).
func codexConfigPath(home string, getenv func(string) string) string {
	if h := getenv("CODEX_HOME"); h != "" {
		return filepath.Join(h, "config.toml")
	}
	return filepath.Join(home, ".codex", "config.toml")
}

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
	path := codexConfigPath(o.Home, getenv)
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
