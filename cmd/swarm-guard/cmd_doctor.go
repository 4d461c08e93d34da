package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/hooks/mcpconfig"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/install"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "doctor",
		summary: "check that every piece of swarm-guard is installed and works here",
		usage: `Usage: swarm-guard doctor [--dir DIR] [--format text|json | --json]

Checks the policy, the agent id, the Claude Code hooks in
.claude/settings.json and the binary they run, the git hooks (present,
executable, swarm-guard's, their binary there) and the secret scanner with
the repository's gitleaks configuration, and lists the MCP servers
configured for the repository with the access the policy gives each, and
every other agent client present (Codex, Gemini CLI, Copilot CLI, opencode,
Qwen Code, Droid): its hooks, and the traps that make it skip them. Prints
one line per check and a remedy under each failure.

Exit codes: 0 all good, 1 a check failed, 2 usage.`,
		run: runDoctor,
	})
}

// doctorResult is the outcome of one check.
type doctorResult struct {
	name   string
	status string // ok, FAIL, warn, skip
	detail string
	remedy string // for FAIL
}

func doctorOK(name, detail string) doctorResult {
	return doctorResult{name: name, status: "ok", detail: detail}
}
func doctorSkip(name, detail string) doctorResult {
	return doctorResult{name: name, status: "skip", detail: detail}
}

// doctorWarn is a weakness doctor cannot fix from the repository (an old
// client): printed with its hint, not counted as a failure.
func doctorWarn(name, detail, hint string) doctorResult {
	return doctorResult{name: name, status: "warn", detail: detail, remedy: hint}
}
func doctorFail(name, detail, remedy string) doctorResult {
	return doctorResult{name: name, status: "FAIL", detail: detail, remedy: remedy}
}

// doctor is what the checks look at.
type doctor struct {
	c      *cli
	t      *installTarget
	pol    *policy.Policy // the default when the policy is broken, so later checks still run
	polErr error
}

// doctorChecks is the list of checks, in the order they print.
var doctorChecks = []func(d *doctor) []doctorResult{
	(*doctor).checkPolicy,
	(*doctor).checkAgentID,
	(*doctor).checkSettings,
	(*doctor).checkFailClosed,
	(*doctor).checkClients,
	(*doctor).checkGitHooks,
	(*doctor).checkSecretScanner,
	(*doctor).checkMCPServers,
}

func runDoctor(c *cli, args []string) error {
	fs := newFlags("doctor")
	dir := fs.String("dir", "", "")
	format := fs.String("format", "text", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: unexpected arguments %q", fs.Args())
	}
	t, err := findInstallTarget(c, *dir, "")
	if err != nil {
		return err
	}
	d := &doctor{c: c, t: t}
	if d.pol, d.polErr = policy.Load(t.ctx.Env.Root); d.polErr != nil {
		d.pol = policy.Default()
	}
	if *format != "text" && *format != "json" {
		return usageErrorf("usage: --format must be text or json, not %q", *format)
	}
	failures := 0
	type jsonCheck struct {
		Name   string `json:"name"`
		Status string `json:"status"` // ok, FAIL, warn, skip
		Detail string `json:"detail"`
		Fix    string `json:"fix,omitempty"`
	}
	var checks []jsonCheck
	for _, check := range doctorChecks {
		for _, r := range check(d) {
			if r.status == "FAIL" {
				failures++
			}
			if *format == "json" {
				checks = append(checks, jsonCheck{r.name, r.status, r.detail, r.remedy})
				continue
			}
			fmt.Fprintf(c.stdout, "%-4s  %s: %s\n", r.status, r.name, r.detail)
			if r.status == "FAIL" {
				fmt.Fprintf(c.stdout, "      fix: %s\n", r.remedy)
			}
			if r.status == "warn" && r.remedy != "" {
				fmt.Fprintf(c.stdout, "      hint: %s\n", r.remedy)
			}
		}
	}
	if *format == "json" {
		b, _ := json.MarshalIndent(struct {
			Checks   []jsonCheck `json:"checks"`
			Problems int         `json:"problems"`
		}{checks, failures}, "", "  ")
		fmt.Fprintln(c.stdout, string(b))
		if failures > 0 {
			return failed()
		}
		return nil
	}
	if failures > 0 {
		fmt.Fprintf(c.stdout, "%d problem(s) found.\n", failures)
		return failed()
	}
	fmt.Fprintln(c.stdout, "All good.")
	return nil
}

func (d *doctor) checkPolicy() []doctorResult {
	if d.polErr != nil {
		return []doctorResult{doctorFail("policy", d.polErr.Error(), "fix the policy file (swarm-guard policy check shows the problem); until then every hook refuses")}
	}
	return []doctorResult{doctorOK("policy", d.pol.Source+" parses")}
}

func (d *doctor) checkAgentID() []doctorResult {
	id, err := identity.InWorktree(d.c.getenv, d.t.ctx.Repo, d.pol)
	if err != nil {
		return []doctorResult{doctorFail("agent id", err.Error(), "set SWARM_GUARD_AGENT_ID to a well-formed id, or fix or delete the id file named above")}
	}
	detail := fmt.Sprintf("%s (from %s)", id.ID, id.Source)
	if id.File != "" {
		detail = fmt.Sprintf("%s (from %s)", id.ID, id.File)
	}
	return []doctorResult{doctorOK("agent id", detail)}
}

func (d *doctor) checkSettings() []doctorResult {
	const name = "claude hooks"
	reinstall := "run swarm-guard install"
	s := install.InspectSettings(d.t.ctx.Env.Root)
	switch {
	case !s.Exists:
		return []doctorResult{doctorFail(name, s.Path+" does not exist, so Claude Code runs no swarm-guard hook", reinstall)}
	case s.Err != nil:
		return []doctorResult{doctorFail(name, s.Path+": "+s.Err.Error(), "fix the JSON: Claude Code runs no hook from a settings file it cannot parse")}
	}
	var missing []string
	binaries := map[string]bool{}
	earlier, earlierPost := false, false
	for _, ev := range clientconfig.ClaudeEvents() {
		if len(s.Ours[ev]) == 0 {
			missing = append(missing, ev)
		}
		for _, cmd := range s.Ours[ev] {
			if clientconfig.IsLauncher(cmd) {
				binaries[""] = true // found by the lookup rule
				switch {
				case cmd == clientconfig.HookCommandFor(ev):
				case ev == "PostToolUse" && cmd == clientconfig.HookCommand():
					earlierPost = true
				default:
					earlier = true
				}
				continue
			}
			binaries[install.CommandBinary(cmd)] = true
		}
	}
	var out []doctorResult
	if len(missing) > 0 {
		out = append(out, doctorFail(name, fmt.Sprintf("%s has no swarm-guard hook for %s", s.Path, strings.Join(missing, ", ")), reinstall))
	} else {
		out = append(out, doctorOK(name, fmt.Sprintf("%s runs swarm-guard for %s", displayPath(d.t.ctx.Env.Root, s.Path), strings.Join(clientconfig.ClaudeEvents(), ", "))))
	}
	if earlier {
		// It works and fails closed; it only costs a second shell.
		out = append(out, doctorWarn(name, displayPath(d.t.ctx.Env.Root, s.Path)+" holds an earlier form of the hook command, which starts a second shell on every tool call",
			"run swarm-guard install: it writes the current command; then commit .claude/settings.json"))
	}
	if earlierPost && !earlier {
		// It works; PostToolUse only starts the full binary every time.
		out = append(out, doctorWarn(name, displayPath(d.t.ctx.Env.Root, s.Path)+" runs the full swarm-guard hook for PostToolUse, an earlier form that starts it after every tool call, also after ls or git status",
			"run swarm-guard install: it writes the current command, which runs swarm-guard-post; then commit .claude/settings.json"))
	}
	for _, b := range slices.Sorted(maps.Keys(binaries)) {
		r := d.binaryResult("claude hook binary", b, false)
		out = append(out, r)
		if r.status != "ok" {
			continue
		}
		if b == "" {
			home, _ := os.UserHomeDir()
			b = clientconfig.LookupBinary(d.t.ctx.Env.Root, home, nil)
		}
		if w, ok := linkageWarning(b); ok {
			out = append(out, w)
		}
	}
	return out
}

// linkageWarning warns when the hook binary, or the swarm-guard-post next
// to it, is linked against the C library (install.DynamicallyLinked): it
// works, but the dynamic loader slows every tool call.
func linkageWarning(binary string) (doctorResult, bool) {
	var dynamic []string
	for _, b := range []string{binary, binary + "-post"} {
		if d, _ := install.DynamicallyLinked(b); d {
			dynamic = append(dynamic, b)
		}
	}
	if len(dynamic) == 0 {
		return doctorResult{}, false
	}
	verb := " is"
	if len(dynamic) > 1 {
		verb = " are"
	}
	return doctorWarn("hook start-up", strings.Join(dynamic, " and ")+verb+" linked against the C library (built with cgo): the dynamic loader adds about half a millisecond to every tool call", install.StaticHint(filepath.Dir(binary))), true
}

func (d *doctor) checkFailClosed() []doctorResult {
	return []doctorResult{failClosedResult(install.InspectSettings(d.t.ctx.Env.Root), install.ClaudeVersion())}
}

// binaryResult checks that a hook's binary runs. Git hooks fall back to
// swarm-guard on PATH; Claude Code hooks do not.
func (d *doctor) binaryResult(name, binary string, pathFallback bool) doctorResult {
	if binary == "" {
		return d.lookupResult(name)
	}
	remedy := "run swarm-guard install, which writes the path of the swarm-guard you run it with (" + d.t.binary + ")"
	if isExecutableFile(binary) {
		return doctorOK(name, binary)
	}
	if pathFallback {
		if p, err := exec.LookPath("swarm-guard"); err == nil {
			return doctorFail(name, fmt.Sprintf("%s is missing; the hooks fall back to %s from PATH, which a different PATH breaks", binary, p), remedy)
		}
	}
	return doctorFail(name, binary+" is missing or not executable: the hooks cannot run it", remedy)
}

// lookupResult checks that the lookup rule (hooks/clientconfig/lookup.go) finds a
// binary for this worktree, as a teammate's hooks will look for it.
func (d *doctor) lookupResult(name string) doctorResult {
	home, _ := os.UserHomeDir()
	if b := clientconfig.LookupBinary(d.t.ctx.Env.Root, home, nil); b != "" {
		return doctorOK(name, b+" (lookup rule: PATH, node_modules/.bin, ~/.local/bin, ~/go/bin)")
	}
	return doctorFail(name, "no swarm-guard on PATH, in node_modules/.bin, ~/.local/bin or ~/go/bin: the hooks block every call and commit",
		"run make install in the swarm-guard source: it puts swarm-guard into $(go env GOPATH)/bin, ~/go/bin by default, where the hooks look")
}

func (d *doctor) checkGitHooks() []doctorResult {
	g := d.t.git
	if g == nil {
		return []doctorResult{doctorSkip("git hooks", "not in a git repository")}
	}
	if g.Refusal != "" {
		return []doctorResult{doctorFail("git hooks", "swarm-guard's git hooks cannot be installed here", g.Refusal)}
	}
	reinstall := "run swarm-guard install"
	var out []doctorResult
	binaries := map[string]bool{}
	for _, h := range install.InspectGitHooks(g) {
		name := "git hook " + h.Name
		where := displayPath(d.t.ctx.Env.Root, h.Path)
		switch {
		case h.Lefthook && h.Err != nil:
			out = append(out, doctorFail(name, h.Err.Error()+": lefthook runs no hook", "fix "+where+", then run swarm-guard install"))
		case h.Lefthook && !h.Exists:
			out = append(out, doctorFail(name, where+" (lefthook's config) is missing", reinstall))
		case h.Lefthook && h.Stale:
			out = append(out, doctorFail(name, where+": swarm-guard's "+h.Name+" command is not the one install writes (edited by hand, or from another version)", reinstall+": it rewrites the marked lines"))
		case h.Lefthook && !h.Ours:
			out = append(out, doctorFail(name, where+" has no swarm-guard command for "+h.Name, reinstall+": it adds one between marker comments"))
		case h.Lefthook && !h.Runnable:
			out = append(out, doctorFail(name, displayPath(d.t.ctx.Env.Root, h.RunnerPath)+" is not lefthook's hook, so git does not run lefthook's "+h.Name+" commands", "run `lefthook install` (`npx lefthook install` with lefthook from npm)"))
		case h.Lefthook:
			out = append(out, doctorOK(name, where+": command "+`"swarm-guard"`+", run by lefthook's "+displayPath(d.t.ctx.Env.Root, h.RunnerPath)))
		case !h.Exists:
			out = append(out, doctorFail(name, where+" is missing", reinstall))
		case !h.Ours && h.MovedTo != "":
			who := h.Manager
			if who == "" {
				who = "another tool"
			}
			out = append(out, doctorFail(name, fmt.Sprintf("%s moved swarm-guard's hook to %s, where git no longer runs it", who, h.MovedTo),
				"run swarm-guard install: it puts swarm-guard's hook back in front and keeps the current hook running after it"))
		case !h.Ours:
			out = append(out, doctorFail(name, where+" is not swarm-guard's (another tool replaced it?)", "run swarm-guard install: the current hook keeps running, after swarm-guard's"))
		case !h.Runnable && g.Husky != "":
			out = append(out, doctorFail(name, h.RunnerPath+" (husky's runner) is missing or not executable, so git runs no hook", "run `npx husky` (npm install does) to create husky's runners"))
		case !h.Runnable:
			out = append(out, doctorFail(name, where+" is not executable, so git skips it", "chmod +x "+shellQuoteArg(h.Path)+", or run swarm-guard install"))
		default:
			detail := where
			if h.Via != "" {
				detail += ": " + h.Via
			}
			if h.Chained != "" {
				detail += ", then " + filepath.Base(h.Chained)
			}
			out = append(out, doctorOK(name, detail))
		}
		if h.Ours {
			binaries[h.Binary] = true // "": found by the lookup rule
		}
	}
	for _, b := range slices.Sorted(maps.Keys(binaries)) {
		out = append(out, d.binaryResult("git hook binary", b, true))
	}
	if g.Lefthook != nil && g.Husky == "" {
		out = append(out, d.lefthookResult(g))
	}
	return out
}

// lefthookResult checks that lefthook's hooks find lefthook: without it
// they print "Can't find lefthook in PATH" and let the commit through.
func (d *doctor) lefthookResult(g *install.GitHooks) doctorResult {
	runner := filepath.Join(g.Dir, "pre-commit")
	if lh := install.LefthookExecutable(d.t.ctx.Env.Root, runner, os.Getenv); lh != "" {
		return doctorOK("lefthook", lh+" (lefthook's hooks run it)")
	}
	return doctorWarn("lefthook", "no lefthook on PATH, in node_modules or where lefthook's hook looks first: the hook then prints \"Can't find lefthook in PATH\" and lets every commit through, unchecked by swarm-guard",
		"install lefthook where its hooks find it (npm install --save-dev lefthook, or lefthook on PATH); ignore this if bundle, go tool, mise or another runner provides it")
}

func (d *doctor) checkSecretScanner() []doctorResult {
	const name = "secret scanner"
	exe, err := client.Find(d.t.binary, nil)
	if err != nil {
		return []doctorResult{doctorFail(name, "secret scanner not installed: "+err.Error(), "run `make install` in the swarm-guard source tree: it installs swarm-guard-secrets next to swarm-guard")}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := wire.Request{Root: d.t.ctx.Env.Root, GitleaksAllow: d.pol.Secrets.GitleaksAllow}
	if _, err := client.Run(ctx, exe, req, nil); err != nil {
		return []doctorResult{doctorFail(name, err.Error(), "fix the gitleaks configuration (.gitleaks.toml) named above, or reinstall both executables with `make install`")}
	}
	cfg := "the default gitleaks rules"
	if _, err := os.Stat(filepath.Join(d.t.ctx.Env.Root, ".gitleaks.toml")); err == nil {
		cfg = ".gitleaks.toml parses"
	}
	return []doctorResult{doctorOK(name, exe+" with "+cfg)}
}

func isExecutableFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

func shellQuoteArg(s string) string {
	if strings.ContainsAny(s, " '\"$`\\") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// checkMCPServers lists the MCP servers Claude Code would start here, with
// the access the policy gives each (rule mcp-access).
func (d *doctor) checkMCPServers() []doctorResult {
	root := d.t.ctx.Env.Root
	servers, err := mcpconfig.Load(root, d.c.getenv("HOME"))
	if err != nil {
		return []doctorResult{doctorFail("mcp servers", err.Error(), "fix the JSON of that file (claude mcp list reads the same files)")}
	}
	if len(servers) == 0 {
		return []doctorResult{doctorOK("mcp servers", "none configured (.mcp.json, ~/.claude.json)")}
	}
	eng := guard.New(d.pol)
	oversight := d.pol.Swarm.Oversight
	var out []doctorResult
	for _, name := range mcpconfig.Names(servers) {
		s := servers[name]
		access := eng.MCPServerAccess(name)
		detail := fmt.Sprintf("%s (%s scope): %s access", name, s.Scope, access)
		if access == "read" {
			detail += " (plus the agent's own pull requests, issues and comments)"
		}
		detail += "; merges and approvals: " + map[string]string{
			policy.OversightPRGated: "denied (pr-gated)", policy.OversightAutonomous: "denied (autonomous: only gh pr merge --auto)",
			policy.OversightCheckpoint: "a human approves each (checkpoint)"}[oversight]
		out = append(out, doctorOK("mcp server", detail))
	}
	return out
}
