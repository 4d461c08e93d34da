package committed

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Context is where a format's commands run: a CI job, an image build, a
// teammate's checkout. It says which rules do not apply there, and what
// the world looks like (the workspace, the variables the runner sets,
// which of them hold secrets).
type Context struct {
	Name string
	// Root is where the repository is when the commands run; Home the
	// home directory there.
	Root, Home string
	// Off are the rules that do not apply, each with why: a CI job's
	// workspace and a build's root file system are thrown away after the
	// run, so what only hurts the agent's own checkout is ordinary there.
	Off map[string]string
	// Vars are variables the runner sets, with values standing for
	// theirs; Secrets are the runner's own secret variables.
	Vars    map[string]string
	Secrets map[string]string
	// Remotes stand for where the repository lives in that context, for
	// credentials that may go back to it.
	Remotes []string
	// Report and Pass are examples: a command of this context that must
	// be reported (with its rule after "rule:") and one that must not.
	Report, Pass []Example
}

// Example is a command judged in a context, with the rule it must be
// reported by ("" for a Pass example).
type Example struct {
	Format Format
	Script string
	Rule   string
}

// contextOf is the context a command runs in.
func contextOf(c *Command) *Context {
	f, p := c.Format, c.File
	switch f {
	case Lefthook, PreCommit:
		return hook
	case PackageJSON:
		if strings.HasSuffix(c.Where, installWhere) {
			return hook
		}
	case GitHubWorkflow, GitHubAction:
		return githubJob
	case GitLabCI:
		return gitlabJob
	case Terraform:
		return terraformCI
	case Dockerfile, Compose:
		return build
	case Shell:
		if strings.HasPrefix(p, ".husky/") || strings.Contains(p, "/.husky/") || strings.HasPrefix(p, ".githooks/") {
			return hook
		}
		for _, ci := range []string{".github/", ".gitlab/", ".circleci/", "ci/", ".ci/", ".buildkite/"} {
			if strings.HasPrefix(p, ci) || strings.Contains(p, "/"+ci) {
				return githubJob // a script a CI job calls: its job's world (no platform told apart)
			}
		}
	}
	return dev
}

// keep reports whether a finding applies in the context.
func (c *Context) keep(f guard.Finding) bool {
	if f.Action != policy.Deny && f.Action != policy.Ask && !f.Action.Shadow() {
		return false
	}
	if _, off := c.Off[f.Rule]; off {
		return false
	}
	if f.RunTime {
		// A variable of a committed file is set where it runs ($CI_COMMIT_TAG,
		// "$tmp", a matrix value): the guard judges the commands it can
		// read, and a path or refspec it cannot is not a finding there.
		return false
	}
	switch f.Rule {
	case policy.RuleGuardTamper:
		return aboutSwarmGuard(f)
	case policy.RuleOversight:
		// Publishing, merging and approving are what release and
		// automerge jobs and make release are for; merging past branch
		// protection and required checks is not.
		return strings.Contains(f.Trigger, "--admin")
	}
	return true
}

// aboutSwarmGuard reports whether a guard-tamper finding turns
// swarm-guard itself off where the command runs: its trust and mode
// switches, swarm-guard uninstall, its policy and ignore files, the
// agents' hook settings. Git hooks in general are not: husky, lefthook,
// core.hooksPath and --no-verify are how projects set up and skip their
// own hooks, a CI job has none of the agent's, and a project's own
// SWARM_GUARD_* test variables or swarm-guard install set nothing off.
func aboutSwarmGuard(f guard.Finding) bool {
	s := f.Trigger + "\x00" + f.Reason
	for _, w := range []string{"SWARM_GUARD_TRUST", "SWARM_GUARD_MODE", "swarm-guard uninstall", ".swarm-guard.toml", committedIgnoreName, ".claude/settings"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// committedIgnoreName is IgnoreFile, for the rule above.
const committedIgnoreName = ".swarm-guard-ignore"

// env is the engine's world for a command of this context.
func (c *Context) env(cmd *Command, remotes []string) *guard.Env {
	cwd := c.Root
	if cmd.Dir != "" {
		if strings.HasPrefix(cmd.Dir, "/") {
			cwd = cleanAbs(cmd.Dir)
		} else {
			cwd = cleanAbs(c.Root + "/" + cmd.Dir)
		}
	}
	vars := map[string]string{"HOME": c.Home, "USER": "runner"}
	for k, v := range c.Vars {
		vars[k] = v
	}
	for k, v := range cmd.Vars {
		vars[k] = v
	}
	secrets := map[string]string{}
	for k, v := range c.Secrets {
		secrets[k] = v
	}
	for k, v := range cmd.Secrets {
		secrets[k] = v
		delete(vars, k)
	}
	if len(remotes) == 0 {
		remotes = c.Remotes
	}
	return &guard.Env{
		Cwd: cwd, Root: c.Root, Home: c.Home, Temp: "/tmp",
		GitDir: c.Root + "/.git", CommonDir: c.Root + "/.git", HooksDirs: []string{c.Root + "/.git/hooks"},
		Vars: vars, Secrets: secrets, Remotes: remotes,
		// The files a command runs (make, npm run, bash x.sh) are judged
		// where they are committed, on their own: read as missing here.
		ReadFile: func(string) ([]byte, error) { return nil, errMissing },
	}
}

func cleanAbs(p string) string {
	var out []string
	for _, part := range strings.Split(p, "/") {
		switch part {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, part)
		}
	}
	return "/" + strings.Join(out, "/")
}
