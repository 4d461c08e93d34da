package rules

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// GuardTamper (G4): the git hooks, the Claude Code settings and the policy
// are the guard itself; skipping or editing them switches it off.
var GuardTamper = Rule{
	ID:      policy.RuleGuardTamper,
	Reason:  "the git hooks, the Claude Code settings and the policy are the guard; skipping or changing them switches it off",
	Instead: insteadGuardTamper,
	Deny: []string{
		"git commit --no-verify -m x",
		"git -c core.hooksPath=/dev/null commit",
		"rm .git/hooks/pre-commit",
		"echo x > .swarm-guard.toml",
		"Edit /work/repo/.claude/settings.json",
		"SWARM_GUARD_TRUST=1 git push",
		"LEFTHOOK=0 git commit -m x",
		"git update-index --skip-worktree lefthook.yml",
	},
	Allow: []string{
		"git commit -m x",
		"cat .swarm-guard.toml",
		"Read /work/repo/.claude/settings.json",
		"git update-index --skip-worktree docs/generated.md",
	},
	Judge: judgeGuardTamper,
}

// insteadGuardTamper is the rule's own alternative.
const insteadGuardTamper = "leave git hooks, Claude Code settings and the swarm-guard policy alone; ask a human to change them"

// judgeGuardTamper decides the effects on the guard's controls: git
// config that changes which hooks run or what trailers say
// (effect.GitConfig), variables (effect.Variable), fresh environments (effect.FreshEnv), nested agents
// (effect.NestedRun) and the changes tool code recognises as changes of a
// control (effect.GuardChange, worded by guardChanges below), which are
// the guard's to make, never an agent's.
func judgeGuardTamper(e effect.Effect, f *Facts) []Verdict {
	switch x := e.(type) {
	case effect.GuardChange:
		w, ok := guardChanges[x.Change]
		if !ok {
			return []Verdict{{Reason: "the command changes the guard's own controls"}}
		}
		return []Verdict{{Reason: w.says(x, f), Instead: w.Instead, RunTime: w.RunTime}}
	case effect.NestedRun:
		var vs []Verdict
		if x.Trust {
			vs = append(vs, Verdict{Reason: "swarm-guard run --trust starts an agent whose denials are switched off", Instead: "run nested agents without --trust"})
		}
		for _, mode := range x.Mode {
			if mode != f.Mode {
				vs = append(vs, Verdict{Reason: "swarm-guard run --mode " + mode + " starts an agent whose denials only warn or log, switching the guard off for it",
					Instead: "start nested agents without --mode: they run under this agent's mode"})
				break
			}
		}
		for _, mode := range x.Oversight {
			if mode != f.Oversight {
				vs = append(vs, Verdict{Reason: "swarm-guard run --oversight " + mode + " gives the agent it starts other merge rights than this agent's own (" + f.Oversight + ")",
					Instead: "start nested agents without --oversight: they inherit this agent's mode"})
				break
			}
		}
		return vs
	case effect.GitConfig:
		if r := tamperConfig(x, f); r != "" {
			v := Verdict{Reason: r}
			if strings.HasPrefix(strings.ToLower(x.Key), "trailer.") {
				v.Instead = insteadTrailers
			}
			return []Verdict{v}
		}
	case effect.Variable:
		if r := tamperVariable(x); r != "" {
			return []Verdict{{Reason: r}}
		}
	case effect.FreshEnv:
		switch {
		case !x.GitHooks:
		case x.Emptied:
			return []Verdict{{Reason: x.By + " starts the command without CLAUDECODE and SWARM_GUARD_*, by which the git hooks tell an agent from a human",
				Instead: "drop only the variables you mean with env -u NAME (not CLAUDECODE, CLAUDE_PROJECT_DIR or SWARM_GUARD_*)"}}
		default:
			return []Verdict{{Reason: x.By + " starts the command in a fresh environment without CLAUDECODE and SWARM_GUARD_*, so the git hooks it runs would take the agent for a human",
				Instead: "run git directly, in the environment you have"}}
		}
	}
	return nil
}

// The alternatives the changes of one control share.
const (
	insteadSetup    = "leave the guard's installation, budgets and policy to a human; read-only verbs (check, doctor, report, policy check, version, id) stay available"
	insteadHooks    = "leave the git hooks to a human (swarm-guard doctor shows their state)"
	insteadTrailers = "commit without an Agent-Id, Agent-Session or Committed-By line: the git hooks add the true ones"
	insteadLedger   = "leave refs/swarm-guard/ to swarm-guard run; swarm-guard report shows the ledger"
	insteadCommit   = "use git commit"
	insteadNoVerify = "run the command without --no-verify and fix what the hooks report"
	insteadApprove  = "give the code to a human, who runs swarm-guard approve outside this session"
)

// changeWords is what the rule says about one kind of change to the
// guard's controls (effect.GuardChange).
type changeWords struct {
	// Deny is a call that makes this change, and Allow (when there is
	// one) its safe twin: guard's TestGuardChangeExamples runs both.
	Deny, Allow string
	// Says is the reason: {command}, {subject} and {pattern} stand for
	// the change's words (the command's own, as written), {agent-key}
	// for the policy's Agent-Id trailer key.
	Says    string
	Instead string
	// RunTime: the change is only known at run time (a word the guard
	// cannot read may be it), Verdict.RunTime.
	RunTime bool
}

// guardChanges is every sentence the rule says about a change that tool
// code recognises, by kind.
var guardChanges = map[effect.Change]changeWords{
	// The guard's installation, budgets and policy: its own CLI, and the
	// agents it starts.
	effect.SetupUnread: {Deny: `swarm-guard "$verb"`, Allow: "swarm-guard doctor",
		Says:    "swarm-guard gets an argument only known at run time, which may switch the guard off",
		Instead: "write the swarm-guard command literally", RunTime: true},
	effect.Uninstall: {Deny: "swarm-guard uninstall", Allow: "swarm-guard version",
		Says: "swarm-guard uninstall switches the guard off", Instead: insteadSetup},
	effect.Approve: {Deny: "swarm-guard approve 4f2a", Allow: "swarm-guard approvals",
		Says:    "swarm-guard approve lifts a denial, which only a human may do",
		Instead: insteadApprove + "; then retry the denied call"},
	effect.Rewire: {Deny: "swarm-guard install --ci", Allow: "swarm-guard install",
		Says: "swarm-guard install with --binary, --on-failure or --ci rewires the guard's hooks or CI backstop", Instead: insteadSetup},
	effect.BudgetChange: {Deny: "swarm-guard budget reset", Allow: "swarm-guard budget show",
		Says: "{command} changes the budgets that stop runaway agents", Instead: insteadSetup},
	effect.PolicyChange: {Deny: "swarm-guard policy init", Allow: "swarm-guard policy check",
		Says: "{command} is not a read-only verb", Instead: insteadSetup},
	effect.AgentBare: {Deny: "claude --bare -p 'fix the tests'", Allow: "claude -p 'fix the tests'",
		Says:    "claude --bare starts an agent without hooks, so without this guard",
		Instead: "start nested agents without --bare (swarm-guard run -- claude -p ... keeps them guarded)"},
	effect.AgentSettings: {Deny: `claude --settings '{"disableAllHooks":true}' -p 'fix the tests'`, Allow: `claude --settings '{"model":"opus"}' -p 'fix the tests'`,
		Says:    "claude --settings can switch hooks off or replace them",
		Instead: "start nested agents without --settings overrides of hooks"},
	effect.AgentSources: {Deny: "claude --setting-sources user -p 'fix the tests'", Allow: "claude --setting-sources user,project -p 'fix the tests'",
		Says:    `claude --setting-sources without "project" skips this repository's hooks`,
		Instead: "keep project in --setting-sources"},

	// The git hooks, the hook managers that install them, and what makes
	// git run other hooks.
	effect.HookManagerUnread: {Deny: `lefthook "$verb"`, Allow: "lefthook run pre-commit",
		Says: "{command} gets an argument only known at run time, which may rewrite the git hooks", Instead: insteadGuardTamper, RunTime: true},
	effect.HookManagerRewrite: {Deny: "lefthook install", Allow: "lefthook run pre-commit",
		Says: "{command} rewrites or removes the git hooks that run the guard", Instead: insteadHooks},
	effect.HookManagerRemoval: {Deny: "npm uninstall husky", Allow: "npm uninstall left-pad",
		Says: "{command} removes the hook manager that runs the guard's git hooks", Instead: "leave the git hooks to a human"},
	effect.ConfigEdit: {Deny: "git config --edit", Allow: "git config --list",
		Says: "git config --edit opens the git config in an editor", Instead: "set single keys with git config <key> <value>"},
	effect.ConfigSection: {Deny: "git config --remove-section core", Allow: "git config --remove-section alias",
		Says: "removing or renaming the {subject} config section can change core.hooksPath", Instead: insteadGuardTamper},
	effect.ConfigUnreadKey: {Deny: `git config "$key" x`, Allow: "git config user.name agent",
		Says: "git config writes a key only known at run time, which may be core.hooksPath", Instead: "write the key literally", RunTime: true},
	effect.ConfigVarUnreadKey: {Deny: `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="$key" GIT_CONFIG_VALUE_0=x git commit -m x`,
		Says: "{command} sets a git config key only known at run time, which may be core.hooksPath", Instead: insteadGuardTamper, RunTime: true},
	effect.ConfigVarUnread: {Deny: `GIT_CONFIG_PARAMETERS="$params" git commit -m x`,
		Says: "GIT_CONFIG_PARAMETERS sets git config only known at run time, which can switch the git hooks off", Instead: insteadGuardTamper, RunTime: true},
	effect.PathUnread: {Deny: `PATH="$dirs" git commit -m x`, Allow: `PATH="$dirs" make`,
		Says: "{command} for a git command is only known at run time, and may put a fake swarm-guard first for the git hooks", Instead: insteadGuardTamper, RunTime: true},
	effect.PathWritable: {Deny: "PATH=/tmp/bin:/usr/bin git commit -m x", Allow: "PATH=/usr/local/go/bin:/usr/bin git commit -m x",
		Says:    "{command} puts {subject}, a directory the agent can write, on the PATH of a git command, so a program there named swarm-guard would answer the git hooks",
		Instead: "run git with the PATH it has; put helper scripts in the PATH of the commands that need them, not of git"},

	// The trailers by which the git hooks say who made a commit.
	effect.TrailerOption: {Deny: "git -c trailer.who.key=Agent-Id commit -m x --trailer who=w2", Allow: "git -c trailer.who.key=Reviewed-by commit -m x --trailer who=ana",
		Says: "git -c {subject} writes an {agent-key} trailer of the agent's choosing", Instead: insteadTrailers},
	effect.TrailerBrought: {Deny: "git commit -m x --trailer 'Agent-Id: w2'", Allow: "git commit -m x --trailer 'Reviewed-by: ana'",
		Says: "{command} brings its own {agent-key} trailer; the git hooks write who made a commit, and a trailer of the agent's choosing forges it", Instead: insteadTrailers},

	// The shared ledger, refs/swarm-guard/: budgets written by swarm-guard
	// run, approvals by a human's swarm-guard approve.
	effect.ApprovalRef: {Deny: "git push origin refs/swarm-guard/approvals/w1",
		Says:    "{command} {subject} writes the approvals shared through the remote, which only a human's swarm-guard approve writes",
		Instead: insteadApprove + "; swarm-guard approvals --remote origin publishes your requests"},
	effect.LedgerRef: {Deny: "git update-ref -d refs/swarm-guard/usage/w1", Allow: "git fetch origin refs/swarm-guard/usage/w1",
		Says: "{command} {subject} writes the shared budget ledger, which only swarm-guard run writes", Instead: insteadLedger},

	// Commits that only exist after the git hooks checked them.
	effect.NoVerify: {Deny: "git push --no-verify", Allow: "git push",
		Says: "{command} --no-verify skips the git hooks that check secrets and commit trailers", Instead: insteadNoVerify},
	effect.NoVerifyShort: {Deny: "git commit -n -m x", Allow: "git commit -m x",
		Says: "git commit -n is --no-verify: it skips the git hooks that check secrets and commit trailers", Instead: insteadNoVerify},
	effect.CommitTree: {Deny: "git commit-tree 4b825dc -m x",
		Says: "git commit-tree creates commits without running the git hooks", Instead: insteadCommit},
	effect.FastImport: {Deny: "git fast-import < history.dump", Allow: "git fast-export main > history.dump",
		Says: "git fast-import creates commits without running the git hooks, with any trailer it is given", Instead: insteadCommit},
	effect.HashObject: {Deny: "git hash-object -w -t commit c.txt", Allow: "git hash-object -w notes.txt",
		Says: "git hash-object -w -t commit writes a commit without running the git hooks, with any trailer it is given", Instead: insteadCommit},
	effect.Replace: {Deny: "git replace HEAD~1 HEAD", Allow: "git replace -l",
		Says: "git replace shows another commit in place of a real one, which the git hooks never checked", Instead: "make a new commit with git commit instead"},
	effect.ToolCommit: {Deny: `mcp__git__git_commit {"repo_path":"/work/repo","message":"m"}`, Allow: `mcp__git__git_status {"repo_path":"/work/repo"}`,
		Says:    "{command} commits without the repository's git hooks (no Agent-Id trailer, no secret scan), like git commit --no-verify",
		Instead: "commit with git commit in the shell, where the hooks run"},

	// The files that configure the guard: the policy, Claude Code's
	// settings, the hook managers' configs, the CI workflow, the hooks.
	effect.UntrackUnread: {Deny: "git rm --cached --pathspec-from-file paths.txt", Allow: "git rm --pathspec-from-file paths.txt",
		Says: "git rm --cached --pathspec-from-file {subject} untracks paths the guard cannot see, which may include the files that configure it", Instead: "name the paths on the command line"},
	effect.Untrack: {Deny: "git rm --cached lefthook.yml", Allow: "git rm --cached build.log",
		Says: "git rm --cached untracks {subject}, which configures the guard: the next commit deletes it from the repository", Instead: insteadGuardTamper},
	effect.HideChanges: {Deny: "git update-index --skip-worktree lefthook.yml", Allow: "git update-index --skip-worktree docs/generated.md",
		Says: "{command} hides changes to {subject}, which configures the guard, from git status, git diff and commits", Instead: insteadGuardTamper},
	effect.StageOther: {Deny: "git update-index --cacheinfo 100644,4b825dc,lefthook.yml", Allow: "git update-index --cacheinfo 100644,4b825dc,notes.txt",
		Says: "git update-index --cacheinfo stages content for {subject}, which configures the guard, that is not the file on disk", Instead: insteadGuardTamper},
	effect.FileChange: {Deny: "echo x > .swarm-guard.toml", Allow: "echo x > notes.txt",
		Says: "{command} {subject}, which configures the guard", Instead: insteadGuardTamper},
	effect.FileInTree: {Deny: "rm .husky/*", Allow: "rm build/*",
		Says: "{command} {pattern}, inside {subject}, which configures the guard", Instead: insteadGuardTamper},
	effect.FileMatched: {Deny: "rm -rf .g?t/hooks", Allow: "rm -rf b?ild",
		Says: "{command} {subject} (matched by {pattern}), which configures the guard", Instead: insteadGuardTamper},
	effect.FileBelow: {Deny: "chmod -R 644 .git", Allow: "chmod -R 644 src",
		Says: "{command} -R changes {subject}, which configures the guard", Instead: insteadGuardTamper},
	effect.ToolWrite: {Deny: "Write /work/repo/.swarm-guard.toml", Allow: "Write /work/repo/notes.txt",
		Says: "writing {subject} changes the guard's own configuration", Instead: insteadGuardTamper},
}

// ChangeExamples returns the call that makes a change of kind c and its
// safe twin ("" when none), for the engine's tests.
func ChangeExamples(c effect.Change) (deny, allow string) {
	return guardChanges[c].Deny, guardChanges[c].Allow
}

// says is w's sentence for x: the change's words in place of {command},
// {subject} and {pattern}, the policy's Agent-Id key in place of
// {agent-key}.
func (w changeWords) says(x effect.GuardChange, f *Facts) string {
	return fill(w.Says, "command", x.Command, "subject", x.Subject, "pattern", x.Pattern, "agent-key", agentKey(f))
}

// agentKey is the trailer key by which the git hooks name the agent.
func agentKey(f *Facts) string {
	if f.Policy == nil || f.Policy.Trailers.AgentKey == "" {
		return "Agent-Id"
	}
	return f.Policy.Trailers.AgentKey
}

// tamperConfig says what a git config key does to the guard, or "" when
// nothing: core.hooksPath and included config files choose which hooks
// run (even unsetting them); a trailer.<token>.key naming one of the
// policy's trailer keys makes any --trailer <token>=... that trailer, and
// trailer.<token>.cmd runs a command whose output becomes a trailer.
func tamperConfig(c effect.GitConfig, f *Facts) string {
	key := strings.ToLower(c.Key)
	switch {
	case key == "core.hookspath":
		return "setting core.hooksPath changes which git hooks run, which can switch the guard's hooks off"
	case key == "include.path" || strings.HasPrefix(key, "includeif."):
		return "including another git config file can change core.hooksPath"
	case !strings.HasPrefix(key, "trailer.") || !c.Set || f.Policy == nil:
		return ""
	}
	t := f.Policy.Trailers
	switch {
	case strings.HasSuffix(key, ".key"):
		v := strings.TrimRight(strings.TrimSpace(c.Value), ":= ")
		for _, k := range []string{t.AgentKey, t.SessionKey, t.HumanKey} {
			if c.Dynamic || k != "" && strings.EqualFold(v, k) {
				return "git config " + c.Key + "=" + c.Value + " turns a trailer of the agent's choosing into an " + t.AgentKey + " trailer"
			}
		}
	case strings.HasSuffix(key, ".cmd") || strings.HasSuffix(key, ".command"):
		return "git config " + c.Key + " runs a command that writes commit trailers, which may forge the " + t.AgentKey + " trailer"
	}
	return ""
}

// tamperVariable says what giving or taking away a variable does to the
// guard, or "" when nothing.
func tamperVariable(v effect.Variable) string {
	name, upper := v.Name, strings.ToUpper(v.Name)
	switch {
	case v.Unset:
		if identityVar(upper) {
			return v.How + " " + name + " hides who the agent is (the git hooks tell an agent's commit from a human's by it)"
		}
		return ""
	case v.How != "":
		if identityVar(upper) {
			return v.How + " " + name + " changes who the agent is or how the guard judges it (" + name + " is set by the agent's client or swarm-guard run, not by the agent)"
		}
		return ""
	}
	switch {
	case upper == "HUSKY" || upper == "HUSKY_SKIP_HOOKS" || upper == "LEFTHOOK" || upper == "LEFTHOOK_EXCLUDE" || upper == "PRE_COMMIT_ALLOW_NO_CONFIG":
		shown := ""
		if len(v.Values) > 0 {
			shown = v.Values[0].Text
		}
		return name + "=" + shown + " switches git hooks off"
	case upper == "SKIP":
		for _, val := range v.Values {
			if val.Dynamic || strings.Contains(val.Text, "swarm-guard") || strings.Contains(val.Text, "gitleaks") {
				return "SKIP=" + val.Text + " skips the swarm-guard or gitleaks pre-commit hooks"
			}
		}
	case (upper == "HOME" || upper == "XDG_CONFIG_HOME") && v.ForGit:
		return name + "= on a git command makes git read another global config, which can set core.hooksPath"
	case upper == "GIT_CONFIG_GLOBAL" || upper == "GIT_CONFIG_SYSTEM" || upper == "GIT_CONFIG":
		return name + " makes git read another config file, which can set core.hooksPath"
	case upper == "SWARM_GUARD_TRUST":
		return "setting SWARM_GUARD_TRUST turns the guard's denials off for whatever runs next"
	case identityVar(upper):
		return "setting " + name + " changes who the agent is or how the guard judges it (" + name + " is set by the agent's client or swarm-guard run, not by the agent)"
	case upper == "CLAUDE_CODE_SIMPLE":
		return "CLAUDE_CODE_SIMPLE starts Claude Code without hooks, so without this guard"
	}
	return ""
}

// identityVar reports whether a variable says who the agent is or how it
// is judged: the agent id, the session and run swarm-guard run set, the
// oversight mode, and the session marks each agent client exports to its
// agent's commands (hooks/hookenv's sessionMarks: Claude Code's, Gemini
// CLI's, Qwen Code's, opencode's, Copilot CLI's, Codex's), by which the git
// hooks tell an agent's commit from a human's. Droid exports none.
func identityVar(upper string) bool {
	switch upper {
	case "AGENT_ID", "CLAUDECODE", "CLAUDE_PROJECT_DIR", "CLAUDE_CODE_ENTRYPOINT",
		"GEMINI_CLI", "QWEN_CODE", "OPENCODE", "COPILOT_CLI", "CODEX_THREAD_ID", "CODEX_MANAGED_BY_NPM":
		return true
	}
	return strings.HasPrefix(upper, "SWARM_GUARD_")
}
