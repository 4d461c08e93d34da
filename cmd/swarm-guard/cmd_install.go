package main

import (
	"fmt"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/install"
)

func init() {
	commands = append(commands, &command{
		name:    "install",
		summary: "wire swarm-guard into this repository (Claude Code hooks, policy)",
		usage: `Usage: swarm-guard install [--dir DIR] [--binary PATH] [--on-failure auto|block|omit] [--dry-run]

Adds swarm-guard's PreToolUse and PostToolUse hooks to .claude/settings.json
(every other key and hook is kept) and writes a commented default
.swarm-guard.toml when there is none. Running it again changes nothing.

Flags:
  --dir DIR          a directory inside the repository (default: the current one)
  --binary PATH      the swarm-guard executable the hooks run (default: this one)
  --on-failure MODE  "block" makes Claude Code block a call when the hook cannot
                     run (needs Claude Code 2.1.295 or later); "auto" adds it when
                     the installed claude is new enough; "omit" never adds it
  --dry-run          print what would change, change nothing`,
		run: runInstall,
	})
}

func runInstall(c *cli, args []string) error {
	fs := newFlags("install")
	dir := fs.String("dir", "", "")
	binary := fs.String("binary", "", "")
	onFailure := fs.String("on-failure", "auto", "")
	dryRun := fs.Bool("dry-run", false, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: unexpected arguments %q", fs.Args())
	}
	where := *dir
	if where == "" {
		wd, err := c.workdir()
		if err != nil {
			return err
		}
		where = wd
	}
	where, err := filepath.Abs(where)
	if err != nil {
		return err
	}
	bin := *binary
	if bin == "" {
		if bin, err = c.executable(); err != nil {
			return fmt.Errorf("cannot find this executable's path (%v); pass --binary", err)
		}
	}
	if !filepath.IsAbs(bin) {
		return usageErrorf("usage: --binary must be an absolute path, got %q", bin)
	}
	block := false
	switch *onFailure {
	case "block":
		block = true
	case "omit":
	case "auto":
		block = install.ClaudeSupportsOnFailure()
	default:
		return usageErrorf("usage: --on-failure must be auto, block or omit")
	}
	ctx := hookenv.Build(hookenv.Options{Cwd: where, Getenv: c.getenv})
	if ctx.Repo == nil {
		fmt.Fprintf(c.stderr, "swarm-guard install: %s is not inside a git repository; installing the Claude Code hooks only\n", where)
	}
	changes, err := install.Plan(install.Options{Root: ctx.Env.Root, Binary: bin, OnFailureBlock: block, StateDir: ctx.StateDir})
	if err != nil {
		return err
	}
	verb := ""
	if *dryRun {
		verb = "would "
	}
	for _, ch := range changes {
		rel, _ := filepath.Rel(ctx.Env.Root, ch.Path)
		fmt.Fprintf(c.stdout, "%s%s %s: %s\n", verb, ch.Action, rel, ch.Summary)
	}
	if *dryRun {
		return nil
	}
	if err := install.Apply(changes); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, "swarm-guard is installed. Check it with: swarm-guard check -- git push --force")
	return nil
}
