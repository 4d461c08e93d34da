package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
	"github.com/swarm-guard/swarm-guard/install"
)

// checkClients checks every agent client other than Claude Code that is
// present here (its project directory, its program on PATH, or its
// installed hooks): its hooks run swarm-guard through the launcher that
// fails closed, and none of the traps that make it skip them silently is
// set (checkClient).
func (d *doctor) checkClients() []Result {
	var out []Result
	e := clientEnv{Root: d.Root, Home: d.Getenv("HOME"), Getenv: d.Getenv, LookPath: exec.LookPath}
	for _, c := range clients.Others {
		checks, present := checkClient(c, e)
		if !present {
			continue
		}
		out = append(out, checks...)
	}
	return out
}

// clientEnv is what the client checks read besides the worktree.
type clientEnv struct {
	Root     string
	Home     string
	Getenv   func(string) string
	LookPath func(string) (string, error)
}

// checkClient is doctor's view of client c in a worktree: whether its
// committed config runs swarm-guard through the current launcher, and the
// traps that make a client skip its hooks without a word (agent-clients.md):
// an untrusted Codex project or an unapproved Codex hook, a Copilot folder
// it does not trust, OPENCODE_PURE, hooks switched off in Gemini's or
// Qwen's user settings. present says the client is here at all (config
// directory or program on PATH); nothing is checked for an absent one.
func checkClient(c clients.Name, e clientEnv) (checks []Result, present bool) {
	name := "client " + string(c)
	if e.Getenv == nil {
		e.Getenv = os.Getenv
	}
	path := clientconfig.ClientConfigPath(e.Root, c)
	data, err := os.ReadFile(path)
	rel, _ := filepath.Rel(e.Root, path)
	configured := err == nil && clientconfig.HasClientHooks(c, data)
	_, statErr := os.Stat(install.ClientDir(e.Root, c))
	dirPresent := statErr == nil
	onPath := e.LookPath != nil && install.ClientOnPath(c, e.LookPath) != ""
	ownCopilotHooks := c == clients.Copilot && clientconfig.CopilotHooksIn(e.Root)
	if c == clients.Copilot && !dirPresent && !onPath && !ownCopilotHooks {
		// Its guard is the Claude Code settings, here in every
		// installed repository: they say nothing of Copilot.
		return nil, false
	}
	if !configured && !dirPresent && !onPath {
		return nil, false
	}
	fix := "swarm-guard install --client " + string(c)
	switch {
	case !configured && dirPresent:
		return []Result{fail(name, fmt.Sprintf("%s is set up in this repository but %s does not run swarm-guard: its agent runs unguarded", c, rel), fix)}, true
	case !configured:
		return []Result{warn(name, fmt.Sprintf("%s is on PATH but this repository does not guard it", clientconfig.ClientProgram(c)), fix)}, true
	case !clientconfig.ClientHooksCurrent(c, data) && c == clients.OpenCode:
		// The plugin is written whole: any older copy still blocks on a
		// crash, but lacks what came after it (token budgets, ...).
		return []Result{fail(name, fmt.Sprintf("%s is not the plugin this swarm-guard writes (an older or edited copy): what this version checks in opencode, such as [budget] max_tokens, may not hold for its agent", rel), fix)}, true
	case !clientconfig.ClientHooksCurrent(c, data):
		return []Result{fail(name, fmt.Sprintf("%s runs swarm-guard through an older hook command, which may let a call through when the binary is missing or crashes", rel), fix)}, true
	}
	checks = append(checks, ok(name, fmt.Sprintf("%s runs swarm-guard; a missing or crashing binary blocks (exit 2). %s", rel, timeoutNote(c))))
	switch c {
	case clients.Codex:
		checks = append(checks, codexTrust(name, e)...)
	case clients.OpenCode:
		if v := e.Getenv("OPENCODE_PURE"); v != "" && v != "0" && v != "false" {
			checks = append(checks, fail(name, "OPENCODE_PURE is set here, so opencode loads no plugin and its agent runs unguarded", "unset OPENCODE_PURE (and never start opencode with --pure)"))
		}
	case clients.Gemini:
		if off := hooksDisabled(filepath.Join(geminiHome(e), "settings.json")); off != "" {
			checks = append(checks, fail(name, off+" sets hooksConfig.enabled to false, so Gemini CLI runs no hook", "remove hooksConfig.enabled from "+off))
		}
	case clients.Qwen:
		if off := hooksDisabled(filepath.Join(e.Home, ".qwen", "settings.json")); off != "" {
			checks = append(checks, fail(name, off+" sets hooksConfig.enabled to false, so Qwen Code runs no hook", "remove hooksConfig.enabled from "+off))
		}
	case clients.Copilot:
		if ownCopilotHooks {
			own, _ := filepath.Rel(e.Root, clientconfig.CopilotHooksPath(e.Root))
			checks = append(checks, warn(name, "Copilot CLI runs both "+own+" (an earlier install's) and "+rel+", so two swarm-guard processes start for every call where one judges it",
				"swarm-guard install --client copilot (it removes "+own+")"))
		}
		if e.Getenv("COPILOT_ALLOW_ALL") != "true" && !copilotTrusts(e) {
			checks = append(checks, warn(name, "Copilot CLI skips this repository's hooks silently unless the folder is trusted, and "+filepath.Join(copilotHome(e), "config.json")+" does not list it",
				"start copilot here once and trust the folder; headless: copilot -p ... --trust-folder (swarm-guard run -- copilot adds it)"))
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
func codexTrust(name string, e clientEnv) []Result {
	cfgPath := install.CodexConfigPath(e.Home, e.Getenv)
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
		return []Result{fail(name, cfgPath+" does not parse ("+oneLineErr(err)+"), so whether Codex trusts this project cannot be told", "fix "+cfgPath+" (codex reports the same error)")}
	}
	var out []Result
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
		out = append(out, fail(name, fmt.Sprintf("Codex was told not to trust this project (%s sets [projects.%q] trust_level = %q), so it loads no hook of .codex/hooks.json: its agent runs unguarded", cfgPath, e.Root, p.TrustLevel),
			fmt.Sprintf("if you trust this project, set trust_level = \"trusted\" under [projects.%q] in %s", e.Root, cfgPath)))
	default:
		out = append(out, fail(name, "Codex does not trust this project ("+cfgPath+" has no [projects.\""+e.Root+"\"] trust_level = \"trusted\"), so it loads no hook of .codex/hooks.json: its agent runs unguarded",
			"swarm-guard install --client codex"))
	}
	prefix := filepath.Join(e.Root, ".codex", "hooks.json") + ":pre_tool_use:"
	approved := false
	for k, s := range cfg.Hooks.State {
		if strings.HasPrefix(k, prefix) && s.TrustedHash != "" && (s.Enabled == nil || *s.Enabled) {
			approved = true
		}
	}
	if !approved {
		out = append(out, warn(name, "swarm-guard's Codex hooks are not approved in "+cfgPath+": codex exec skips an unapproved hook silently",
			"start codex here and approve swarm-guard's hooks (/hooks); run headless agents with swarm-guard run -- codex exec ..., which passes --dangerously-bypass-hook-trust"))
	}
	return out
}

func geminiHome(e clientEnv) string {
	if h := e.Getenv("GEMINI_CLI_HOME"); h != "" {
		return filepath.Join(h, ".gemini")
	}
	return filepath.Join(e.Home, ".gemini")
}

func copilotHome(e clientEnv) string {
	if h := e.Getenv("COPILOT_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".copilot")
}

// copilotTrusts reports whether Copilot CLI's config lists the worktree,
// or a directory above it, among its trusted folders.
func copilotTrusts(e clientEnv) bool {
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
