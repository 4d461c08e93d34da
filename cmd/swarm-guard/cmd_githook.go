package main

import (
	"github.com/swarm-guard/swarm-guard/hooks/githook"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
)

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

// agentAncestor is hookenv.AgentAncestor; the test binary replaces it so
// scripts are not judged by the session the tests happen to run in.
var agentAncestor = hookenv.AgentAncestor

// runGitHook checks git's arguments and runs the hook (hooks/githook).
func runGitHook(c *cli, args []string) error {
	if len(args) == 0 {
		return usageErrorf("usage: git-hook needs the hook name")
	}
	env := githook.Env{
		Stdin: c.stdin, Stderr: c.stderr, Getenv: c.getenv, Workdir: c.workdir, Executable: c.executable,
		AgentAncestor: func() int { return agentAncestor() },
	}
	hook, args := args[0], args[1:]
	var code int
	switch hook {
	case "pre-commit":
		code = githook.PreCommit(env)
	case "prepare-commit-msg":
		if len(args) < 1 || len(args) > 3 {
			return usageErrorf("usage: git-hook prepare-commit-msg <message file> [<source> [<commit>]]")
		}
		source := ""
		if len(args) > 1 {
			source = args[1]
		}
		code = githook.PrepareCommitMsg(env, args[0], source)
	case "commit-msg":
		if len(args) != 1 {
			return usageErrorf("usage: git-hook commit-msg <message file>")
		}
		code = githook.CommitMsg(env, args[0])
	case "pre-push":
		if len(args) != 2 {
			return usageErrorf("usage: git-hook pre-push <remote> <url>, with git's ref lines on stdin")
		}
		code = githook.PrePush(env)
	default:
		return usageErrorf("usage: unknown git hook %q; swarm-guard handles pre-commit, prepare-commit-msg, commit-msg and pre-push", hook)
	}
	if code != githook.Pass {
		return silentExit(exitFailure)
	}
	return nil
}
