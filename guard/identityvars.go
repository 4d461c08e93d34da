package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Every way a command can give an identity variable (identityVar) a value
// of the agent's choosing, or hide it from what runs next, besides the
// assignments envvars.go judges: read/mapfile/printf -v into it,
// declare/typeset/local of it, a for loop over it, unset and env -u (the
// shell layer hands each over as an effect.Variable), and env -i, which
// starts the command with none of them (Fresh, shelltools.go).

// gitCommits lists git subcommands that make commits, whose message hooks
// write who made them. (A push's ownership the engine judges itself.)
var gitCommits = map[string]bool{
	"commit": true, "merge": true, "pull": true, "rebase": true, "am": true, "cherry-pick": true, "revert": true,
}

// gitSub returns the subcommand of a git command line (rest[0] is git).
func gitSub(rest []shell.Word) string {
	for i := 1; i < len(rest); i++ {
		x := rest[i]
		if x.Static() && (x.Text == "-C" || x.Text == "-c" || x.Text == "--git-dir" || x.Text == "--work-tree") {
			i++
			continue
		}
		if !x.Static() || !strings.HasPrefix(x.Text, "-") {
			return x.Text
		}
	}
	return ""
}

// freshEnvironment: sudo (without -E), doas, su -l, runuser -l and
// systemd-run start the command in an environment of their own, without
// CLAUDECODE and SWARM_GUARD_*, so the git hooks of a commit there would
// take the agent for a human. rest is the command they run; script, when
// not empty, a shell script they run instead (su -l -c '...').
func (a *analyzer) freshEnvironment(inv *shell.Invocation, how string, rest []shell.Word, script shell.Word) {
	a.judge(inv, effect.FreshEnv{By: how, GitHooks: startsGitHooks(rest, script)})
}

// startsGitHooks reports whether a command runs a git command that runs
// hooks: git itself, or a shell -c script (or script) that names git and
// one of its committing subcommands.
func startsGitHooks(rest []shell.Word, script shell.Word) bool {
	namesGit := func(x shell.Word) bool {
		if x.Dynamic {
			return true
		}
		git := false
		for _, w := range strings.FieldsFunc(x.Text, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '/' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			if commandName(w) == "git" {
				git = true
			} else if git && gitCommits[w] {
				return true // git ... commit, roughly: the text is a script
			}
		}
		return false
	}
	if script.Text != "" || script.Dynamic {
		return namesGit(script)
	}
	if len(rest) == 0 {
		return false
	}
	if !rest[0].Static() {
		return true
	}
	switch commandName(rest[0].Text) {
	case "git":
		return gitCommits[gitSub(rest)]
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish":
		for _, x := range rest[1:] {
			if namesGit(x) {
				return true
			}
		}
	}
	return false
}

// gitRunsHooks lists git subcommands that run client-side hooks.
var gitRunsHooks = map[string]bool{
	"commit": true, "merge": true, "pull": true, "push": true, "rebase": true, "am": true, "cherry-pick": true,
	"revert": true, "checkout": true, "switch": true, "clone": true, "worktree": true, "gc": true, "": true,
}

// shadowsGuardOnPath: PATH=<dir>:... on a git command, where dir is a
// place the agent can write, lets a program named swarm-guard there answer
// the git hooks (they fall back to the PATH when the installed binary is
// gone).
func (a *analyzer) shadowsGuardOnPath(rep *shell.Invocation, name string, val []shell.Word, st *shell.State) {
	for _, v := range val {
		if v.Dynamic {
			a.judge(rep, effect.GuardChange{Change: effect.PathUnread, Command: name})
			return
		}
		for _, dir := range strings.Split(v.Text, ":") {
			if dir == "" || !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, ".") {
				continue
			}
			abs := shell.CleanJoin(st.FirstCwd(a.env.Cwd), dir)
			if a.underRoot(abs) || a.writable(abs) {
				a.judge(rep, effect.GuardChange{Change: effect.PathWritable, Command: name, Subject: abs})
				return
			}
		}
	}
}

// nestedOversight returns the modes swarm-guard run --oversight asks for
// (before the agent command's --): an agent may not hand the agent it
// starts other merge rights than its own (effect.NestedRun).
func nestedOversight(rest []shell.Word) []string { return nestedFlag(rest, "--oversight") }

// nestedFlag returns the values of a swarm-guard run option, in order, as
// written ("<unknown>" for one only known at run time), before the agent
// command's --.
func nestedFlag(rest []shell.Word, flag string) []string {
	var modes []string
	for i, x := range rest {
		if x.Text == "--" {
			break
		}
		v, ok := strings.CutPrefix(x.Text, flag+"=")
		if x.Text == flag && i+1 < len(rest) {
			v, ok = rest[i+1].Text, true
			if !rest[i+1].Static() {
				v = "<unknown>"
			}
		}
		if ok {
			modes = append(modes, v)
		}
	}
	return modes
}

// trailerConfig: git config trailer.<token>.key = Agent-Id (persistent, -c,
// --config-env or GIT_CONFIG_*) makes any --trailer <token>=... an agent
// trailer; trailer.<token>.cmd/.command runs a command whose output becomes
// a trailer. Either lets a commit carry an identity of the agent's choosing:
// the guard-tamper rule decides from the key and the value as written.
func (a *analyzer) trailerConfig(inv *shell.Invocation, rawKey string, val shell.Word) {
	a.judge(inv, effect.GitConfig{Key: rawKey, Value: val.Show(), Set: true, Dynamic: val.Dynamic})
}
