package replay

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/decide"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/history"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

// HookDecider judges calls through decide.Decide, the one decision
// function the hook and check call: the same event, the same decision.
// Nothing is recorded and no approval is made or used (Facts.Effects is
// off). Each call is a PreToolUse event with the cwd, session and
// subagent as recorded, the session's launch directory as
// CLAUDE_PROJECT_DIR (the agent's home worktree).
func HookDecider(getenv func(string) string) Decider {
	if getenv == nil {
		getenv = os.Getenv
	}
	ctxs := map[[2]string]*hookenv.Context{}
	return func(pol *policy.Policy, c *history.Call) guard.Decision {
		ev := &event.Event{HookEventName: event.PreToolUse, ToolName: c.Tool, ToolInput: c.Input, Cwd: c.Cwd, SessionID: c.Session}
		f := decide.Facts{Getenv: recordedEnv(getenv, c), Policy: pol}
		key := [2]string{c.Cwd, c.Project}
		if ctxs[key] == nil && filepath.IsAbs(c.Cwd) {
			ctxs[key] = decide.BuildContext(c.Cwd, f)
		}
		f.Context = ctxs[key]
		return decide.Decide(ev, f).Decision
	}
}

// recordedEnv is the environment a call is judged in: this process's,
// with the session's launch directory as CLAUDE_PROJECT_DIR, and, for a
// call recorded on another machine (its directory does not exist here),
// the home directory its paths imply (/home/<user>, /Users/<user>), so ~
// means what it meant there. The variables of this process that say who
// runs it (an agent session, swarm-guard run) are not the recorded
// call's: they are left out.
func recordedEnv(getenv func(string) string, c *history.Call) func(string) string {
	local := func(k string) string {
		switch k {
		case "CLAUDE_PROJECT_DIR":
			return c.Project
		case "SWARM_GUARD_RUN", "SWARM_GUARD_HOME", "SWARM_GUARD_MODE", "SWARM_GUARD_TRUST", "SWARM_GUARD_OVERSIGHT", "SWARM_GUARD_AGENT_ID", "AGENT_ID":
			return ""
		}
		return getenv(k)
	}
	if _, err := os.Stat(c.Cwd); err == nil {
		return local
	}
	home := impliedHome(c.Project)
	if home == "" {
		home = impliedHome(c.Cwd)
	}
	return func(k string) string {
		if k == "HOME" {
			return home
		}
		return local(k)
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
