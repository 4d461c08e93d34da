package rules

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// The guard-tamper judge on the effects tool code builds for the guard's
// controls: which variables and environments it denies, and which not.
func TestJudgeGuardTamper(t *testing.T) {
	set := func(name string, vals ...string) effect.Variable {
		v := effect.Variable{Name: name}
		for _, s := range vals {
			v.Values = append(v.Values, effect.Value{Text: s, Dynamic: strings.HasPrefix(s, "$")})
		}
		return v
	}
	forGit := func(v effect.Variable) effect.Variable { v.ForGit = true; return v }
	for _, tc := range []struct {
		name string
		e    effect.Effect
		want string // a fragment of the reason, or "" for no verdict
	}{
		{"SWARM_GUARD_TRUST=1", set("SWARM_GUARD_TRUST", "1"), "turns the guard's denials off"},
		{"AGENT_ID=x", set("AGENT_ID", "x"), "setting AGENT_ID changes who the agent is"},
		{"claudecode=", set("claudecode", ""), "setting claudecode changes"},
		{"FOO=bar", set("FOO", "bar"), ""},
		{"LEFTHOOK=0", set("LEFTHOOK", "0"), "LEFTHOOK=0 switches git hooks off"},
		{"SKIP=lint", set("SKIP", "lint"), ""},
		{"SKIP=gitleaks", set("SKIP", "gitleaks"), "SKIP=gitleaks skips"},
		{"SKIP=$x", set("SKIP", "$x"), "SKIP=$x skips"},
		{"HOME=/tmp (shell)", set("HOME", "/tmp"), ""},
		{"HOME=/tmp git commit", forGit(set("HOME", "/tmp")), "another global config"},
		{"GIT_CONFIG_GLOBAL=x", set("GIT_CONFIG_GLOBAL", "x"), "another config file"},
		{"CLAUDE_CODE_SIMPLE=1", set("CLAUDE_CODE_SIMPLE", "1"), "without hooks"},
		{"read AGENT_ID", effect.Variable{Name: "AGENT_ID", How: "read"}, "read AGENT_ID changes who the agent is"},
		{"read LEFTHOOK", effect.Variable{Name: "LEFTHOOK", How: "read"}, ""},
		{"for x", effect.Variable{Name: "x", How: "for"}, ""},
		{"unset CLAUDECODE", effect.Variable{Name: "CLAUDECODE", How: "unset", Unset: true}, "unset CLAUDECODE hides who the agent is"},
		{"env -u SWARM_GUARD_AGENT", effect.Variable{Name: "SWARM_GUARD_AGENT", How: "env -u", Unset: true}, "env -u SWARM_GUARD_AGENT hides"},
		{"unset FOO", effect.Variable{Name: "FOO", How: "unset", Unset: true}, ""},
		{"env -i git commit", effect.FreshEnv{By: "env -i", Emptied: true, GitHooks: true}, "env -i starts the command without CLAUDECODE"},
		{"env -i git status", effect.FreshEnv{By: "env -i", Emptied: true}, ""},
		{"sudo git commit", effect.FreshEnv{By: "sudo", GitHooks: true}, "sudo starts the command in a fresh environment"},
		{"sudo ls", effect.FreshEnv{By: "sudo"}, ""},
		{"swarm-guard uninstall", effect.GuardChange{Change: effect.Uninstall}, "swarm-guard uninstall switches the guard off"},
		{"lefthook install", effect.GuardChange{Change: effect.HookManagerRewrite, Command: "lefthook install"}, "lefthook install rewrites or removes the git hooks"},
		{"git -c trailer", effect.GuardChange{Change: effect.TrailerOption, Subject: "trailer.who.key=agent-id"}, "git -c trailer.who.key=agent-id writes an Agent-Id trailer"},
		{"a file by pattern", effect.GuardChange{Change: effect.FileMatched, Command: "rm deletes", Subject: "/w/lefthook.yml", Pattern: "/w/lefthook.y*"}, "rm deletes /w/lefthook.yml (matched by /w/lefthook.y*), which configures the guard"},
		{"run --trust", effect.NestedRun{Trust: true}, "--trust starts an agent whose denials are switched off"},
		{"run --oversight autonomous", effect.NestedRun{Oversight: []string{"autonomous"}}, "--oversight autonomous gives the agent it starts other merge rights than this agent's own (pr-gated)"},
		{"run --oversight pr-gated", effect.NestedRun{Oversight: []string{"pr-gated"}}, ""},
		{"run --oversight pr-gated --oversight <unknown>", effect.NestedRun{Oversight: []string{"pr-gated", "<unknown>"}}, "--oversight <unknown>"},
		{"run", effect.NestedRun{}, ""},
		{"git config core.hooksPath", effect.GitConfig{Key: "core.hooksPath", Value: "/dev/null", Set: true}, "setting core.hooksPath"},
		{"git config --unset core.hookspath", effect.GitConfig{Key: "core.hookspath"}, "setting core.hooksPath"},
		{"git config includeIf", effect.GitConfig{Key: "includeIf.gitdir:/w/.path", Value: "x", Set: true}, "including another git config file"},
		{"git config trailer.who.key Agent-Id", effect.GitConfig{Key: "trailer.who.key", Value: "agent-id:", Set: true}, "git config trailer.who.key=agent-id: turns a trailer of the agent's choosing into an Agent-Id trailer"},
		{"git config trailer.who.key $k", effect.GitConfig{Key: "trailer.who.key", Value: "$k", Set: true, Dynamic: true}, "trailer.who.key=$k turns"},
		{"git config trailer.who.key Reviewed-By", effect.GitConfig{Key: "trailer.who.key", Value: "Reviewed-By", Set: true}, ""},
		{"git config trailer.x.cmd", effect.GitConfig{Key: "trailer.x.cmd", Value: "echo", Set: true}, "runs a command that writes commit trailers"},
		{"git config user.name", effect.GitConfig{Key: "user.name", Value: "x", Set: true}, ""},
		{"a forge effect", effect.ForgeAction{Op: effect.ForgeMerge, By: "gh"}, ""},
		{"no effect", nil, ""},
	} {
		vs := judgeGuardTamper(tc.e, &Facts{Policy: policy.Default(), Oversight: policy.OversightPRGated})
		switch {
		case tc.want == "" && len(vs) > 0:
			t.Errorf("%s: got %+v, want no verdict", tc.name, vs)
		case tc.want != "" && (len(vs) != 1 || !strings.Contains(vs[0].Reason, tc.want)):
			t.Errorf("%s: got %+v, want a verdict saying %q", tc.name, vs, tc.want)
		}
		for _, v := range JudgeEffect(tc.e, &Facts{Policy: policy.Default(), Oversight: policy.OversightPRGated}) {
			if tc.want != "" && v.Rule != policy.RuleGuardTamper || v.Instead == "" {
				t.Errorf("%s: verdict %+v", tc.name, v)
			}
		}
	}
}

// Every kind of change the tool code recognises has its sentence, its
// alternative and a command that makes it (run through the engine by
// guard's TestGuardChangeExamples); every placeholder is filled.
func TestGuardChangeWords(t *testing.T) {
	if len(guardChanges) != int(effect.ToolWrite) {
		t.Errorf("%d kinds of change are worded, want all %d", len(guardChanges), effect.ToolWrite)
	}
	x := effect.GuardChange{Command: "COMMAND", Subject: "SUBJECT", Pattern: "PATTERN"}
	for c := effect.SetupUnread; c <= effect.ToolWrite; c++ {
		w, ok := guardChanges[c]
		if !ok || w.Deny == "" || w.Says == "" || w.Instead == "" {
			t.Errorf("change %d: %+v, want an example, a sentence and an alternative", c, w)
			continue
		}
		x.Change = c
		vs := JudgeEffect(x, &Facts{Policy: policy.Default()})
		if len(vs) != 1 || vs[0].Rule != policy.RuleGuardTamper || strings.ContainsAny(vs[0].Reason, "{}") || vs[0].Instead != w.Instead {
			t.Errorf("change %d: %+v", c, vs)
		}
		for _, word := range []string{"command", "subject", "pattern"} {
			if strings.Contains(w.Says, "{"+word+"}") != strings.Contains(vs[0].Reason, strings.ToUpper(word)) {
				t.Errorf("change %d: %q fills {%s} wrongly", c, vs[0].Reason, word)
			}
		}
	}
	if v := JudgeEffect(effect.GuardChange{}, &Facts{})[0]; v.Rule != policy.RuleGuardTamper || v.Reason == "" || v.Instead != GuardTamper.Instead {
		t.Errorf("an unworded change: %+v", v)
	}
}
