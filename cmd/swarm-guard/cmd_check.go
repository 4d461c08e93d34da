package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "check",
		summary: "explain the decision on a command or a file-tool path",
		usage: `Usage:
  swarm-guard check [--cwd DIR] [--json] [--policy FILE] -- COMMAND...
  swarm-guard check --tool Write|Edit|Read|Grep|Glob --path PATH [--cwd DIR] [--json]
  swarm-guard check --tool mcp__SERVER__TOOL [--cwd DIR] [--json] -- '{"tool":"input"}'

Shows what the hook would decide: the rule, the reason, the part of the
command that triggered it and what to do instead.
Exit codes: 0 allowed, 1 denied or ask, 2 usage error.

Flags:
  --cwd DIR      directory the command runs in (default: the current directory)
  --tool NAME    Claude Code tool to check (default Bash); for an MCP tool,
                 its tool_input as JSON after -- (default {})
  --path PATH    the file path of a file tool (Write, Edit, Read, Grep, Glob)
  --policy FILE  use this policy file instead of the repository's
  --json         print the decision as JSON`,
		run: runCheck,
	})
}

type checkResult struct {
	Action      string          `json:"action"`
	Rule        string          `json:"rule,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Trigger     string          `json:"trigger,omitempty"`
	Alternative string          `json:"alternative,omitempty"`
	Message     string          `json:"message,omitempty"`
	Findings    []guard.Finding `json:"findings"`
	Policy      string          `json:"policy"`
	Root        string          `json:"root"`
	Cwd         string          `json:"cwd"`
}

func runCheck(c *cli, args []string) error {
	fs := newFlags("check")
	cwd := fs.String("cwd", "", "")
	tool := fs.String("tool", guard.ToolBash, "")
	path := fs.String("path", "", "")
	policyFile := fs.String("policy", "", "")
	asJSON := fs.Bool("json", false, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	dir := *cwd
	if dir == "" {
		wd, err := c.workdir()
		if err != nil {
			return fmt.Errorf("cannot tell the current directory: %w", err)
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return usageErrorf("usage: bad --cwd %q: %v", dir, err)
	}
	in := guard.ToolInput{}
	switch *tool {
	case guard.ToolBash, guard.ToolMonitor, guard.ToolPowerShell:
		if fs.NArg() == 0 {
			return usageErrorf("usage: give the command after --, for example: swarm-guard check -- git push --force")
		}
		cmd := strings.Join(fs.Args(), " ")
		in.Command = &cmd
	case guard.ToolRead, guard.ToolWrite, guard.ToolEdit, guard.ToolMultiEdit, guard.ToolNotebookEdit:
		if *path == "" {
			return usageErrorf("usage: --tool %s needs --path", *tool)
		}
		in.FilePath, in.NotebookPath = *path, *path
	case guard.ToolGrep, guard.ToolGlob, guard.ToolLS:
		in.Path = *path
	default:
		if !guard.IsMCPTool(*tool) {
			return usageErrorf("usage: --tool %q is not a tool swarm-guard checks (Bash, Read, Write, Edit, MultiEdit, NotebookEdit, Grep, Glob, mcp__SERVER__TOOL)", *tool)
		}
	}
	exe, _ := c.executable()
	ctx := hookenv.Build(hookenv.Options{Cwd: abs, Getenv: c.getenv, Executables: hookenv.GuardExecutables(exe)})
	var pol *policy.Policy
	if *policyFile != "" {
		pol, err = policy.LoadFile(*policyFile)
	} else {
		pol, err = policy.Load(ctx.Env.Root)
	}
	res := checkResult{Root: ctx.Env.Root, Cwd: ctx.Env.Cwd, Findings: []guard.Finding{}}
	var d guard.Decision
	if err != nil {
		d = guard.Decision{Action: policy.Deny, Rule: policy.RulePolicyError, Reason: "the policy file is broken: " + err.Error(),
			Alternative: "fix the policy (swarm-guard policy check shows the problem)"}
		res.Policy = *policyFile
	} else {
		if guard.IsMCPTool(*tool) {
			d = guard.New(pol).CheckMCP(*tool, mcpCheckInput(fs.Args()), ctx.Env)
		} else {
			d = guard.New(pol).Check(*tool, in, ctx.Env)
		}
		res.Policy = pol.Source
	}
	res.Action, res.Rule, res.Reason, res.Trigger, res.Alternative = string(d.Action), d.Rule, d.Reason, d.Trigger, d.Alternative
	if res.Action == "" {
		res.Action = "allow"
	} else {
		res.Message = d.Message()
	}
	if d.Findings != nil {
		res.Findings = d.Findings
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		printCheck(c.stdout, res)
	}
	if d.Stops() { // warn and log: the call would run
		return failed()
	}
	return nil
}

func printCheck(w io.Writer, r checkResult) {
	if r.Action == "allow" {
		fmt.Fprintln(w, "allow: no rule matched; swarm-guard gives no decision, Claude Code's own permissions apply")
	} else {
		label := policy.Info(r.Rule).Label
		if label != "" {
			label = " (" + label + ")"
		}
		fmt.Fprintf(w, "%s: rule %s%s\n", r.Action, r.Rule, label)
		fmt.Fprintf(w, "  reason:  %s\n", r.Reason)
		if r.Trigger != "" {
			fmt.Fprintf(w, "  trigger: %s\n", r.Trigger)
		}
		if r.Alternative != "" {
			fmt.Fprintf(w, "  instead: %s\n", r.Alternative)
		}
	}
	for i, f := range r.Findings {
		if i == 0 && f.Action != "allow" {
			continue // the deciding finding, shown above
		}
		if f.AllowedBy != "" {
			fmt.Fprintf(w, "  allowed by [[allow]] %q: %s: %s\n", f.AllowedBy, f.Rule, f.Reason)
			continue
		}
		fmt.Fprintf(w, "  also %s: %s: %s\n", f.Action, f.Rule, f.Reason)
	}
	fmt.Fprintf(w, "policy: %s\nworktree: %s\n", r.Policy, r.Root)
}

// mcpCheckInput is the tool_input of an MCP call given to check after --:
// the JSON object, {} when none is given.
func mcpCheckInput(args []string) []byte {
	in := strings.TrimSpace(strings.Join(args, " "))
	if in == "" {
		in = "{}"
	}
	return []byte(in)
}
