package decide

import (
	"bytes"
	"os"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/watch"
	"github.com/swarm-guard/swarm-guard/policy"
)

// contentCheck scans what a Write/Edit/MultiEdit/NotebookEdit would write
// for secrets, after the path rules passed, what an MCP call would hand
// its server, and what a WebFetch, WebSearch or Monitor ws call, or the
// network clients of a Bash command, would send, after the engine passed
// the call. The gitleaks engine runs in the swarm-guard-secrets process;
// a Bash command without a URL never reaches it.
func contentCheck(in *event.Event, ctx *hookenv.Context, pol *policy.Policy, sent []guard.SentURL, runner secretscan.Runner) guard.Decision {
	switch in.ToolName {
	case guard.ToolWebFetch, guard.ToolWebSearch, guard.ToolMonitor, guard.ToolBash:
		// The URL or query of WebFetch, WebSearch, a Monitor's ws, and
		// the URLs of curl and the like in a command. Most commands hold
		// no "://" and end here; the rest is a small input, decoded again.
		if in.ToolName != guard.ToolWebSearch && !bytes.Contains(in.ToolInput, []byte("://")) {
			return guard.Decision{}
		}
		ti, err := event.DecodeToolInput(in.ToolInput) // a Bash call's without reflection
		switch {
		case err != nil:
			return guard.Decision{}
		case guard.IsWebTool(in.ToolName, ti):
			return secretscan.CheckWeb(secretscan.WebRequest{Tool: in.ToolName, Input: ti, Env: ctx.Env, Policy: pol, Runner: runner})
		case ti.Command != nil:
			return secretscan.CheckCommandURLs(*ti.Command, sent, ctx.Env, pol, runner)
		}
		return guard.Decision{}
	}
	if guard.IsMCPTool(in.ToolName) {
		return secretscan.CheckMCPArgs(secretscan.MCPRequest{Tool: in.ToolName, ToolInput: in.ToolInput, Root: ctx.Env.Root, Policy: pol, Runner: runner})
	}
	return secretscan.CheckContent(secretscan.ContentRequest{
		Tool: in.ToolName, ToolInput: in.ToolInput, Decoded: in.File, Root: ctx.Env.Root, Policy: pol, Runner: runner, Resolve: ctx.Env.Resolve,
	})
}

// startWatcher starts the worktree's file watcher (`swarm-guard hook
// --watch ROOT STATEDIR`, hooks/secretscan/watch) in the background, for
// the hook only; SWARM_GUARD_BACKGROUND=0 does without it (and without
// the scan server): no background process, and every opaque Bash call
// looks at the whole worktree.
func startWatcher(ctx *hookenv.Context, f Facts) func(watch.Paths) error {
	if !f.Effects || os.Getenv("SWARM_GUARD_BACKGROUND") == "0" {
		return nil
	}
	return func(p watch.Paths) error {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		return watch.Start(exe, "hook", "--watch", p.Root, ctx.StateDir)
	}
}

// secretsRunner runs the swarm-guard-secrets executable that sits next to
// this one (symbolic links resolved), or the one on PATH. The executable
// is looked up only when a scan runs. The scan server and the watcher are
// this process's business: they follow its own environment. A scan before
// a call gets nine tenths of the decision's deadline (900 ms of the
// default second), so that a slow scan ends with a message about the scan.
func secretsRunner(deadline time.Duration) secretscan.Runner {
	return secretscan.Runner{FindSelf: selfPath, Server: os.Getenv("SWARM_GUARD_BACKGROUND") != "0", Timeout: deadline - deadline/10}
}

// selfPath is this executable with symbolic links resolved; "" when it
// cannot be found.
func selfPath() string {
	self, err := os.Executable()
	if err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
	}
	return self
}
