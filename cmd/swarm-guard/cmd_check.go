package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/decide"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "check",
		summary: "explain the decision on a command or a file-tool path",
		usage: `Usage:
  swarm-guard check [--cwd DIR] [--json] [--trace] [--policy FILE] -- COMMAND...
  swarm-guard check --tool Write|Edit|Read|Grep|Glob --path PATH [--cwd DIR] [--json]
  swarm-guard check --tool mcp__SERVER__TOOL [--cwd DIR] [--json] -- '{"tool":"input"}'

Shows what the hook decides, by the hook's own decision function (engine,
secret checks of what the call writes or sends, MCP arguments): the rule,
the reason, the part of the command that triggered it and what to do
instead.
Exit codes: 0 allowed, 1 denied or ask, 2 usage error.

Flags:
  --cwd DIR      directory the command runs in (default: the current directory)
  --tool NAME    Claude Code tool to check (default Bash); for an MCP tool,
                 its tool_input as JSON after -- (default {})
  --path PATH    the file path of a file tool (Write, Edit, Read, Grep, Glob)
  --policy FILE  use this policy file instead of the repository's
  --trace        print why: each step consulted (budget, engine, secret
                 checks), every rule that matched, and what the shell layer
                 saw (each invocation and each effect handed to the rules)
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
	// Lifted: the decision a policy let through ("allowed-fail-open",
	// "trusted"); Rule and Reason are then the lifted decision's.
	Lifted string   `json:"lifted,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Trace  []string `json:"trace,omitempty"`
}

func runCheck(c *cli, args []string) error {
	fs := newFlags("check")
	cwd := fs.String("cwd", "", "")
	tool := fs.String("tool", guard.ToolBash, "")
	path := fs.String("path", "", "")
	policyFile := fs.String("policy", "", "")
	asJSON := fs.Bool("json", false, "")
	trace := fs.Bool("trace", false, "")
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
	input := map[string]any{}
	switch *tool {
	case guard.ToolBash, guard.ToolMonitor, guard.ToolPowerShell:
		if fs.NArg() == 0 {
			return usageErrorf("usage: give the command after --, for example: swarm-guard check -- git push --force")
		}
		input["command"] = strings.Join(fs.Args(), " ")
	case guard.ToolRead, guard.ToolWrite, guard.ToolEdit, guard.ToolMultiEdit:
		if *path == "" {
			return usageErrorf("usage: --tool %s needs --path", *tool)
		}
		input["file_path"] = *path
	case guard.ToolNotebookEdit:
		if *path == "" {
			return usageErrorf("usage: --tool %s needs --path", *tool)
		}
		input["notebook_path"] = *path
	case guard.ToolGrep, guard.ToolGlob, guard.ToolLS:
		input["path"] = *path
	default:
		if !guard.IsMCPTool(*tool) {
			return usageErrorf("usage: --tool %q is not a tool swarm-guard checks (Bash, Read, Write, Edit, MultiEdit, NotebookEdit, Grep, Glob, mcp__SERVER__TOOL)", *tool)
		}
	}
	ev := event.Event{HookEventName: event.PreToolUse, Cwd: abs, ToolName: *tool}
	if guard.IsMCPTool(*tool) {
		ev.ToolInput = mcpCheckInput(fs.Args())
	} else if ev.ToolInput, err = json.Marshal(input); err != nil {
		return err
	}
	exe, _ := c.executable()
	// The hook's own decision function, without the hook's effects: the
	// same event gets the same answer here as in the hook.
	a := decide.Decide(&ev, decide.Facts{Getenv: c.getenv, Now: c.now, Executables: hookenv.GuardExecutables(exe), PolicyFile: *policyFile, Trace: *trace, Deadline: hookDeadline})
	d := a.Decision
	res := checkResult{Root: a.Root, Cwd: a.Cwd, Policy: a.Policy, Findings: []guard.Finding{}, Lifted: a.Lifted, Notes: a.Notes, Trace: a.Trace}
	res.Action, res.Rule, res.Reason, res.Trigger, res.Alternative = string(d.Action), d.Rule, d.Reason, d.Trigger, d.Alternative
	if res.Action == "" {
		res.Action = "allow"
	} else {
		res.Message = a.Message
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
	for _, line := range r.Trace {
		fmt.Fprintf(w, "trace: %s\n", line)
	}
	switch {
	case r.Action == "allow" && r.Lifted != "":
		fmt.Fprintf(w, "allow (%s): rule %s would decide: %s\n", r.Lifted, r.Rule, r.Reason)
	case r.Action == "allow":
		fmt.Fprintln(w, "allow: no rule matched; swarm-guard gives no decision, Claude Code's own permissions apply")
	default:
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
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
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
