package main

import (
	"github.com/swarm-guard/swarm-guard/install"
)

func init() {
	commands = append(commands, &command{
		name:    "uninstall",
		summary: "take swarm-guard out of this repository, restoring what was there before",
		usage: `Usage: swarm-guard uninstall [--dir DIR] [--dry-run]

Removes swarm-guard's hooks from .claude/settings.json (the file comes back
byte for byte when nothing else changed since install, and is removed when
install created it and only swarm-guard's hooks are in it), removes the
default policy file install created unless it was edited, removes
swarm-guard's git hooks and puts back the hooks they chained. Only this
worktree's files are touched, and the git hooks all worktrees share.

Flags:
  --dir DIR   a directory inside the repository (default: the current one)
  --dry-run   print what would change, change nothing`,
		run: runUninstall,
	})
}

func runUninstall(c *cli, args []string) error {
	fs := newFlags("uninstall")
	dir := fs.String("dir", "", "")
	dryRun := fs.Bool("dry-run", false, "")
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
	plan, err := install.PlanUninstall(install.Options{Root: t.ctx.Env.Root, Binary: t.binary, StateDir: t.ctx.StateDir, Git: t.git})
	if err != nil {
		return err
	}
	return applyPlan(c, t.ctx.Env.Root, plan, *dryRun, "swarm-guard is uninstalled from this worktree.")
}
