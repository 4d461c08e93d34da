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
	Instead: "leave git hooks, Claude Code settings and the swarm-guard policy alone; ask a human to change them",
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

// judgeGuardTamper decides the effects on the guard's controls: git
// config that changes which hooks run or what trailers say
// (effect.GitConfig), variables (effect.Variable), fresh environments (effect.FreshEnv), nested agents
// (effect.NestedRun) and the changes tool code recognises as changes of a
// control (effect.GuardChange), which are the guard's to make, never an
// agent's.
func judgeGuardTamper(e effect.Effect, f *Facts) []Verdict {
	switch x := e.(type) {
	case effect.GuardChange:
		v := Verdict{Reason: x.Does, Instead: x.Instead}
		if v.Instead == "" {
			v.Instead = insteadControl[x.Control]
		}
		return []Verdict{v}
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
				v.Instead = insteadControl[effect.Trailers]
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

// insteadControl is what to do instead of changing a control ("" for the
// rule's own alternative).
var insteadControl = map[effect.Control]string{
	effect.GuardSetup:    "leave the guard's installation, budgets and policy to a human; read-only verbs (check, doctor, report, policy check, version, id) stay available",
	effect.GitHooks:      "leave the git hooks to a human (swarm-guard doctor shows their state)",
	effect.Trailers:      "commit without an Agent-Id, Agent-Session or Committed-By line: the git hooks add the true ones",
	effect.BudgetLedger:  "leave refs/swarm-guard/ to swarm-guard run; swarm-guard report shows the ledger",
	effect.HookedHistory: "use git commit",
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
