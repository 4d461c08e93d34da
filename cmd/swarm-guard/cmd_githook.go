package main

func init() {
	commands = append(commands, &command{
		name:    "git-hook",
		summary: "run one git hook (pre-commit, prepare-commit-msg, commit-msg, pre-push); run by git",
		usage: `Usage: swarm-guard git-hook <hook> [git's hook arguments]

Hooks: pre-commit, prepare-commit-msg, commit-msg, pre-push. Installed by
swarm-guard install into the hooks directory git uses; not meant to be run
by hand. A non-zero exit blocks the git operation.`,
		run: runGitHook,
	})
}

// gitHooks maps a git hook name to its implementation, each in its own
// githook_<name>.go file.
var gitHooks = map[string]func(c *cli, args []string) error{}

func runGitHook(c *cli, args []string) error {
	if len(args) == 0 {
		return usageErrorf("usage: git-hook needs the hook name")
	}
	h, ok := gitHooks[args[0]]
	if !ok {
		return usageErrorf("usage: unknown git hook %q; swarm-guard handles pre-commit, prepare-commit-msg, commit-msg and pre-push", args[0])
	}
	if err := h(c, args[1:]); err != nil {
		return err
	}
	return nil
}
