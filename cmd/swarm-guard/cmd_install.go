package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
	"github.com/swarm-guard/swarm-guard/hooks/gitx"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/install"
	"github.com/swarm-guard/swarm-guard/install/doctor"
)

func init() {
	commands = append(commands, &command{
		name:    "install",
		summary: "wire swarm-guard into this repository (Claude Code hooks, git hooks, policy)",
		usage: `Usage: swarm-guard install [--dir DIR] [--binary PATH] [--on-failure auto|block|omit] [--client LIST] [--dry-run]
       swarm-guard install --ci github [--dir DIR] [--force] [--dry-run]

Adds swarm-guard's PreToolUse, PostToolUse and PostToolUseFailure hooks to .claude/settings.json
(every other key and hook is kept), writes a commented default
.swarm-guard.toml when there is none, and installs the git hooks pre-commit,
prepare-commit-msg, commit-msg and pre-push where git runs them (shared by
all worktrees). A hook that is already there keeps running, after
swarm-guard's. With husky, swarm-guard joins the .husky/<hook> scripts.
Outside a git repository only the Claude Code hooks and the policy are
installed. Running it again changes nothing. Check the result with
swarm-guard doctor; undo it with swarm-guard uninstall.

With --ci, writes only the CI workflow that runs swarm-guard verify on pull
requests.

Flags:
  --dir DIR          a directory inside the repository (default: the current one)
  --binary PATH      the swarm-guard executable the hooks run (default: this one)
  --on-failure MODE  "block" makes Claude Code block a call when the hook crashes
                     or times out (needs Claude Code 2.1.295 or later); "auto"
                     keeps what the committed settings say, else adds it when
                     the installed claude is new enough; "omit" never adds it.
                     A missing binary blocks either way (the hook exits 2)
  --client LIST      also guard these agent clients, comma-separated:
                     codex, gemini, copilot, opencode, qwen, droid, or "auto"
                     for those present here (config directory or program on
                     PATH); writes .codex/hooks.json, .gemini/settings.json,
                     .github/hooks/swarm-guard.json, .opencode/plugins/swarm-guard.js,
                     .qwen/settings.json, .factory/hooks.json (docs/clients.md)
  --ci PROVIDER      write the CI workflow instead (github)
  --force            with --ci: replace a workflow file edited by hand
  --dry-run          print what would change, change nothing

Exit codes: 0 installed, 1 refused (core.hooksPath, a workflow edited by hand), 2 usage or failure.`,
		run: runInstall,
	})
}

// installTarget is the worktree a command works on and the binary hooks run.
type installTarget struct {
	ctx    *hookenv.Context
	binary string
	git    *install.GitHooks // nil outside git
}

func findInstallTarget(c *cli, dir, binary string) (*installTarget, error) {
	where := dir
	if where == "" {
		wd, err := c.workdir()
		if err != nil {
			return nil, fmt.Errorf("cannot tell the current directory: %w", err)
		}
		where = wd
	}
	where, err := filepath.Abs(where)
	if err != nil {
		return nil, usageErrorf("usage: bad --dir %q: %v", dir, err)
	}
	t := &installTarget{binary: binary}
	if t.binary == "" {
		if t.binary, err = c.executable(); err != nil {
			return nil, fmt.Errorf("cannot find this executable's path (%v); pass --binary", err)
		}
	}
	if !filepath.IsAbs(t.binary) {
		return nil, usageErrorf("usage: --binary must be an absolute path, got %q", t.binary)
	}
	t.ctx = hookenv.Build(hookenv.Options{Cwd: where, Getenv: c.getenv})
	if t.ctx.Repo != nil {
		if t.git, err = install.LocateGitHooks(t.ctx.Env.Root); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func runInstall(c *cli, args []string) error {
	fs := newFlags("install")
	dir := fs.String("dir", "", "")
	binary := fs.String("binary", "", "")
	onFailure := fs.String("on-failure", "auto", "")
	ci := fs.String("ci", "", "")
	force := fs.Bool("force", false, "")
	dryRun := fs.Bool("dry-run", false, "")
	clientList := fs.String("client", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: unexpected arguments %q", fs.Args())
	}
	var others []clients.Name
	if *clientList != "" && *clientList != "auto" {
		var err error
		if others, err = clients.ParseList(*clientList); err != nil {
			return usageErrorf("usage: --client: %v", err)
		}
	}
	if *ci != "" {
		root := *dir
		if root == "" {
			wd, err := c.workdir()
			if err != nil {
				return err
			}
			root = wd
		}
		return runInstallCI(c, root, *ci, *force, *dryRun)
	}
	if *force {
		return usageErrorf("usage: --force only goes with --ci")
	}
	switch *onFailure {
	case "block", "omit", "auto":
	default:
		return usageErrorf("usage: --on-failure must be auto, block or omit")
	}
	t, err := findInstallTarget(c, *dir, *binary)
	if err != nil {
		return err
	}
	claudeVersion := install.ClaudeVersion()
	block := *onFailure == "block"
	if *onFailure == "auto" {
		// The settings file is committed: once it holds swarm-guard's
		// hooks, keep its choice, so a teammate with another Claude Code
		// version does not rewrite it.
		if s := install.InspectSettings(t.ctx.Env.Root); s.Err == nil && len(s.Ours) > 0 {
			block = s.OnFailureBlock
		} else {
			block = install.SupportsOnFailure(claudeVersion)
		}
	}
	detected := install.DetectClients(t.ctx.Env.Root, nil)
	if *clientList == "auto" {
		others = detected
	}
	if t.git == nil {
		fmt.Fprintf(c.stderr, "swarm-guard install: %s is not inside a git repository; installing the Claude Code hooks and the policy only (no git hooks)\n", t.ctx.Env.Root)
	}
	plan, err := install.PlanInstall(install.Options{Root: t.ctx.Env.Root, Binary: t.binary, OnFailureBlock: block, StateDir: t.ctx.StateDir, Git: t.git,
		TrailersSince: installedOn(t.ctx.Env.Root), Clients: others, Home: c.getenv("HOME"), Getenv: c.getenv})
	var refused *install.RefusedError
	if errors.As(err, &refused) {
		return &exitError{code: exitFailure, msg: "refused, nothing was changed: " + refused.Msg}
	}
	if err != nil {
		return err
	}
	if err := applyPlan(c, t.ctx.Env.Root, plan, *dryRun, ""); err != nil {
		return err
	}
	if !*dryRun {
		if r := doctor.FailClosed(install.InspectSettings(t.ctx.Env.Root), claudeVersion); r.Status != doctor.Skip {
			fmt.Fprintf(c.stdout, "note: %s\n", r.Detail)
			if r.Fix != "" {
				fmt.Fprintf(c.stdout, "note: to fix it: %s\n", r.Fix)
			}
		}
		for _, n := range install.ClientNotes(others, t.ctx.Env.Root) {
			fmt.Fprintf(c.stdout, "note: %s\n", n)
		}
		var unguarded []string
		for _, d := range detected {
			if !slices.Contains(others, d) && !clientconfig.HasClientHooksIn(t.ctx.Env.Root, d) {
				unguarded = append(unguarded, string(d))
			}
		}
		if len(unguarded) > 0 {
			fmt.Fprintf(c.stdout, "note: %s present here but not guarded; guard them too with: swarm-guard install --client %s\n", strings.Join(unguarded, ", "), strings.Join(unguarded, ","))
		}
		fmt.Fprintln(c.stdout, "swarm-guard is installed. Check every piece with: swarm-guard doctor")
	}
	return nil
}

// applyPlan prints a plan and, unless this is a dry run, carries it out.
func applyPlan(c *cli, root string, plan *install.Plan, dryRun bool, done string) error {
	printPlan(c, root, plan, dryRun)
	if dryRun {
		return nil
	}
	if err := plan.Apply(); err != nil {
		return err
	}
	if done != "" {
		fmt.Fprintln(c.stdout, done)
	}
	return nil
}

// printPlan prints one line per change, paths relative to the worktree
// root when inside it, then the notes.
func printPlan(c *cli, root string, plan *install.Plan, dryRun bool) {
	verb := ""
	if dryRun {
		verb = "would "
	}
	for _, ch := range plan.Changes {
		v := verb
		if !ch.Changed() {
			v = ""
		}
		fmt.Fprintf(c.stdout, "%s%s %s: %s\n", v, ch.Action, install.DisplayPath(root, ch.Path), ch.Summary)
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(c.stdout, "note: %s\n", n)
	}
}

// installedOn is the commit checked out in root, or "" in a repository
// without commits (or outside one): commits made before install need no
// agent trailer.
func installedOn(root string) string {
	out, err := gitx.Runner{Dir: root}.Output("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
