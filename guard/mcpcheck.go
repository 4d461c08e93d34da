package guard

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/internal/sqlcheck"
	"github.com/swarm-guard/swarm-guard/guard/mcp"
	"github.com/swarm-guard/swarm-guard/policy"
)

// IsMCPTool reports whether a tool name is an MCP tool (mcp__server__tool).
func IsMCPTool(name string) bool { return mcp.IsTool(name) }

// Argument names whose values the engine reads like the rest of a command.
var (
	mcpSQLKeys  = []string{"sql", "query", "statement", "sql_query", "statements", "queries"}
	mcpPathKeys = []string{"path", "paths", "file_path", "filepath", "filename", "source", "destination", "target_path", "files", "output_path", "outputPath"}
	// mcpPlaceKeys name where a server works (a repository, a database
	// file, a directory): read access to the place, whatever the tool does.
	mcpPlaceKeys   = []string{"repo_path", "db_path", "directory", "dir", "cwd", "root"}
	mcpCommandKeys = []string{"command", "cmd", "script", "shell_command", "commands"}
	// mcpURLKeys name an address a local server opens (a browser's
	// browser_navigate, puppeteer_navigate, a fetch server's fetch): a
	// file:// address reads a local file.
	mcpURLKeys = []string{"url", "uri", "href"}
	// mcpBranchKeys name a branch the call writes to. A pull request's
	// base and head are not among them: create_pull_request to base main
	// asks for a merge into main, it writes nothing there; the merge
	// itself is what oversight judges.
	mcpBranchKeys = []string{"branch", "ref", "branch_name", "target_branch", "head_branch"}
)

// CheckMCP judges an MCP tool call: the access its server has under the
// policy's [mcp] section, the oversight mode for merges and approvals,
// and its arguments — SQL through the SQL rule, local paths through the
// file rules, branches through the branch rules and shell commands through
// the whole Bash guard, exactly as if the agent had typed them.
func (e *Engine) CheckMCP(tool string, rawInput []byte, env *Env) Decision {
	n, ok := mcp.Parse(tool)
	if !ok {
		return badInput("the tool name "+fmt.Sprintf("%q", tool)+" is not an MCP tool name (mcp__<server>__<tool>)", "call the tool by its full MCP name")
	}
	args := map[string]any{}
	if len(rawInput) > 0 && string(rawInput) != "null" {
		if err := json.Unmarshal(rawInput, &args); err != nil {
			return badInput("tool_input of the "+tool+" call is not a JSON object: "+err.Error(), "resend the call with a well-formed tool_input")
		}
	}
	t := mcp.Classify(n)
	where := "MCP server " + n.Server + ", tool " + n.Tool
	if n.Plugin != "" {
		where = "MCP server " + n.Server + " of plugin " + n.Plugin + ", tool " + n.Tool
	}
	a := e.newAnalyzer(env)
	inv := &shell.Invocation{Name: where, Argv: []shell.Word{{Text: tool}}, State: a.initialState()}
	var subs []Decision

	// Arguments first: what they do can raise the access the call needs.
	access := t.Access
	if sqls := mcpStrings(args, mcpSQLKeys); len(sqls) > 0 && t.Access < mcp.Destructive {
		// A tool that runs SQL does what its SQL does.
		access = mcp.Read
		for _, sql := range sqls {
			se := sqlEffect(where, sql)
			a.judge(inv, se) // the rule Bash's clients go through
			if len(se.Destructive) > 0 {
				access = mcp.Destructive
			} else if !sqlcheck.ReadOnly(sql) && access < mcp.Write {
				access = mcp.Write // DML, DDL, or SQL the guard cannot read
			}
		}
	}
	for _, c := range mcpStrings(args, mcpCommandKeys) {
		sub := *env
		if cwd, ok := args["cwd"].(string); ok && strings.HasPrefix(cwd, "/") {
			sub.Cwd = cwd
		}
		subs = append(subs, namedFor(e.CheckCommand(c, &sub), where+" runs a shell command: "))
		if access < mcp.Write {
			access = mcp.Write
		}
	}
	if t.Kind == mcp.Local {
		op := OpRead
		if access >= mcp.Write {
			op = OpWrite
		}
		for _, p := range mcpStrings(args, mcpPathKeys) {
			subs = append(subs, namedFor(e.CheckPath(op, p, env), where+": "))
		}
		for _, p := range mcpStrings(args, mcpPlaceKeys) {
			subs = append(subs, namedFor(e.CheckPath(OpRead, p, env), where+": "))
		}
		// A browser or fetch server opening file:///home/u/.ssh/id_rsa
		// reads the file, and hands its text to the agent.
		for _, u := range mcpStrings(args, mcpURLKeys) {
			if p, ok := fileURLPath(u); ok {
				subs = append(subs, namedFor(e.CheckPath(OpRead, p, env), where+" opens "+u+": "))
			}
		}
	}
	if access >= mcp.Write || t.GitCheckout || t.GitPush {
		branches := mcpStrings(args, mcpBranchKeys)
		if t.GitPush && len(branches) == 0 && env.Branch != "" {
			branches = []string{env.Branch} // a push without a branch pushes the checked-out one, as git push does
		}
		// What the call does to each branch; protected-branch and
		// foreign-branch judge it as they judge git (guard/rules).
		op := effect.MCPWrite
		switch {
		case t.GitCheckout && !t.GitPush && !t.WritesRef:
			op = effect.MCPCheckout
		case !t.GitPush && !t.WritesRef:
			op = effect.MCPActOn
		}
		for _, b := range branches {
			c := effect.BranchChange{Op: op, Branch: b, Args: where, Delete: t.Access == mcp.Destructive}
			if op == effect.MCPWrite && !e.pol.IsProtectedBranch(b) {
				c.CheckedOutBy = a.checkedOutElsewhere(strings.TrimPrefix(b, "refs/heads/"))
			}
			a.judge(inv, c)
		}
	}
	if t.GitCommit {
		a.judge(inv, effect.GuardChange{Change: effect.ToolCommit, Command: where})
	}

	// Oversight: merging, approving, administering and closing others'
	// work are for humans unless the task says otherwise; the same effects
	// as gh pr merge, gh pr review --approve, gh repo delete, gh pr close
	// (forge.go), decided by the same judge.
	approve := t.Approve && strings.EqualFold(mcpString(args, "event"), "APPROVE")
	forge := effect.ForgeAction{By: where, MCP: true}
	switch {
	case t.Merge:
		forge.Op, forge.Does = effect.ForgeMerge, effect.MergesPullRequest
	case approve:
		forge.Op, forge.Does = effect.ForgeApprove, effect.ApprovesPullRequest
	case t.Forge && access == mcp.Destructive && !t.WritesRef:
		// Whatever access the server has: oversight, not the server's
		// access, decides. Deleting a branch is judged like git push
		// --delete instead: the branch ownership rules above.
		forge.Op, forge.Does = effect.ForgeAdmin, effect.Administers
	}
	if forge.Op != 0 {
		a.judge(inv, forge)
	}
	if st := mcpString(args, "state"); t.Forge && t.SetsPRState && st != "" {
		a.judge(inv, effect.ForgeAction{Op: effect.ForgeState, By: where, MCP: true, Does: effect.SetsPullRequestState, Subject: st})
	}
	if st := mcpString(args, "state"); t.Forge && t.SetsIssueState && st != "" {
		a.judge(inv, effect.ForgeAction{Op: effect.ForgeState, By: where, MCP: true, Issue: true, Does: effect.SetsIssueState, Subject: st})
	}

	// Access: what the call needs against what the policy gives its
	// server (level, per-tool lists), judged by guard/rules/mcp_access.go.
	sp, hasPolicy := e.mcpServerPolicy(n)
	a.judge(inv, effect.MCPCall{By: where, Server: n.Server, Tool: n.Tool, Needs: access,
		Granted: e.mcpLevel(n, sp, hasPolicy), Listed: e.mcpToolAction(sp, n.Tool),
		Own: t.Own, Guessed: !t.Known, Oversight: t.Merge || approve})
	return strongest(append([]Decision{a.decision()}, subs...))
}

// mcpServerPolicy finds [mcp.servers.X] by the configured name as it
// appears in the tool name, then by the server's own name.
func (e *Engine) mcpServerPolicy(n mcp.Name) (policy.MCPServer, bool) {
	keys := []string{n.Server, mcp.Canonical(n)}
	if n.Plugin != "" {
		keys = append(keys, "plugin_"+n.Plugin+"_"+n.Server)
	}
	for _, k := range keys {
		if sp, ok := e.pol.MCP.Servers[k]; ok && k != "" {
			return sp, true
		}
	}
	return policy.MCPServer{}, false
}

func (e *Engine) mcpToolAction(sp policy.MCPServer, tool string) string {
	match := func(globs []string) bool {
		for _, g := range globs {
			if ok, _ := doublestar.Match(g, tool); ok {
				return true
			}
		}
		return false
	}
	switch {
	case match(sp.Deny):
		return "deny"
	case match(sp.Ask):
		return "ask"
	case match(sp.Allow):
		return "allow"
	}
	return ""
}

// mcpLevel is the highest access the server's calls may have: its policy
// entry, else [mcp] default, else read (write for browser servers).
// "deny" is below read.
func (e *Engine) mcpLevel(n mcp.Name, sp policy.MCPServer, has bool) mcp.Access {
	level := ""
	if has {
		level = sp.Access
	}
	if level == "" {
		level = e.pol.MCP.Default
	}
	switch level {
	case "write":
		return mcp.Write
	case "admin":
		return mcp.Destructive
	case "deny":
		return -1
	case "read":
		return mcp.Read
	}
	return mcp.DefaultAccess(mcp.Canonical(n))
}

// mcpStrings collects the string values of the named arguments, looking
// one level into lists and objects ({"files": [{"path": ...}]}).
func mcpStrings(args map[string]any, keys []string) []string {
	var out []string
	var add func(v any)
	add = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, y := range x {
				add(y)
			}
		case map[string]any:
			for _, k := range keys {
				if y, ok := x[k]; ok {
					if s, ok := y.(string); ok {
						out = append(out, s)
					}
				}
			}
		}
	}
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	sort.Strings(names) // findings in a stable order
	for _, k := range names {
		for _, want := range keys {
			if strings.EqualFold(k, want) {
				add(args[k])
			}
		}
	}
	return out
}

func mcpString(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

// namedFor names the MCP call in a decision the engine made about one of
// its arguments.
func namedFor(d Decision, prefix string) Decision {
	if d.Action == "" {
		return d
	}
	d.Reason = prefix + d.Reason
	for i := range d.Findings {
		d.Findings[i].Reason = prefix + d.Findings[i].Reason
	}
	return d
}

// strongest returns the first deny, else the first ask, else no decision;
// a specific rule (the SQL, the path, the command) before mcp-access,
// which only says the server may not do this at all.
func strongest(ds []Decision) Decision {
	for _, want := range []policy.Action{policy.Deny, policy.Ask, policy.Warn, policy.Log} {
		var access *Decision
		for i, d := range ds {
			if d.Action != want {
				continue
			}
			if d.Rule != policy.RuleMCPAccess {
				return d
			}
			if access == nil {
				access = &ds[i]
			}
		}
		if access != nil {
			return *access
		}
	}
	return Decision{}
}

// MCPServerAccess is the access the policy gives a configured MCP server:
// "read", "write", "admin" or "no" (for doctor's listing).
func (e *Engine) MCPServerAccess(server string) string {
	n := mcp.Name{Server: server}
	sp, has := e.mcpServerPolicy(n)
	return e.mcpLevel(n, sp, has).Level()
}

// fileURLPath returns the local path a file: URL names (file:///etc/x,
// file://localhost/etc/x, view-source:file:///etc/x, file:.env), with
// escapes decoded; false for any other address.
func fileURLPath(u string) (string, bool) {
	u = strings.TrimSpace(u)
	if len(u) >= 12 && strings.EqualFold(u[:12], "view-source:") {
		u = u[12:]
	}
	if len(u) < 5 || !strings.EqualFold(u[:5], "file:") {
		return "", false
	}
	parsed, err := url.Parse("file:" + u[5:])
	if err != nil {
		return "", false
	}
	p := parsed.Path
	if parsed.Opaque != "" {
		p, _ = url.PathUnescape(parsed.Opaque) // file:.env, relative
	}
	if parsed.Host != "" && !strings.EqualFold(parsed.Host, "localhost") {
		return "", false // a file on another machine (file://server/share)
	}
	if p == "" {
		return "", false
	}
	return p, true
}
