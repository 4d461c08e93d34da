package replay

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/history"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

// EngineDecider judges calls as the hook's engine does: MCP calls by
// CheckMCP, the tools it models by Check, other tools not at all. The
// worktree of each (cwd, home) pair is described once: a history of ten
// thousand calls has a handful.
func EngineDecider(getenv func(string) string) Decider {
	if getenv == nil {
		getenv = os.Getenv
	}
	ctxs := map[[2]string]*hookenv.Context{}
	engines := map[*policy.Policy]*guard.Engine{}
	return func(pol *policy.Policy, c *history.Call) guard.Decision {
		eng := engines[pol]
		if eng == nil {
			eng = guard.New(pol)
			engines[pol] = eng
		}
		key := [2]string{c.Cwd, c.Project}
		ctx := ctxs[key]
		if ctx == nil {
			ctx = hookenv.Build(hookenv.Options{Cwd: c.Cwd, Home: c.Project, ProjectDir: c.Project, Getenv: recordedEnv(getenv, c)})
			ctxs[key] = ctx
		}
		if guard.IsMCPTool(c.Tool) {
			return eng.CheckMCP(c.Tool, c.Input, ctx.Env)
		}
		if !guard.KnownTool(c.Tool) {
			return guard.Decision{}
		}
		ti, err := guard.DecodeToolInput(c.Input)
		if err != nil {
			return guard.Decision{Action: policy.Deny, Rule: policy.RuleBadInput, Reason: "the recorded tool_input is malformed: " + err.Error()}
		}
		return eng.Check(c.Tool, ti, ctx.Env)
	}
}

// recordedEnv is the environment a call is judged in: this process's,
// except that a call recorded on another machine (its directory does not
// exist here) gets the home directory its paths imply (/home/<user>,
// /Users/<user>), so ~ means what it meant there.
func recordedEnv(getenv func(string) string, c *history.Call) func(string) string {
	if _, err := os.Stat(c.Cwd); err == nil {
		return getenv
	}
	home := impliedHome(c.Project)
	if home == "" {
		home = impliedHome(c.Cwd)
	}
	return func(k string) string {
		switch k {
		case "HOME":
			return home
		case "CLAUDE_PROJECT_DIR":
			return c.Project
		}
		return getenv(k)
	}
}

// impliedHome is the home directory a path lies in, by the usual layouts;
// "" when it names none.
func impliedHome(p string) string {
	parts := strings.Split(filepath.ToSlash(p), "/")
	switch {
	case len(parts) >= 3 && (parts[1] == "home" || parts[1] == "Users") && parts[2] != "":
		return "/" + parts[1] + "/" + parts[2]
	case len(parts) >= 2 && parts[1] == "root":
		return "/root"
	}
	return ""
}
