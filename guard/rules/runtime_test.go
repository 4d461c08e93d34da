package rules

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// TestRunTimeVerdicts: a verdict resting on a word only known at run time
// says so in Verdict.RunTime, which a committed file's judge reads instead
// of the reason's words; its literal twin does not.
func TestRunTimeVerdicts(t *testing.T) {
	f := &Facts{Policy: policy.Default(), Root: "/work/repo", Home: "/home/agent", Temp: "/tmp", Oversight: policy.OversightPRGated}
	cases := []struct {
		e    effect.Effect
		want bool
	}{
		{effect.HiddenCode{What: `"$CMD"`, Why: effect.CommandName}, true},
		{effect.HiddenCode{By: "find", What: "*.sh", Why: effect.MatchedScripts}, true},
		{effect.HiddenCode{By: "pwsh", Why: effect.PowerShell}, false},
		{effect.HiddenCode{By: "npm", What: "package.json", Why: effect.InvalidJSON}, false},
		{effect.UnreadCode{By: "bash -c", Code: `text only known at run time ("$X")`, How: effect.ScriptWord, From: effect.FromRunTime}, true},
		{effect.UnreadCode{By: "bash -c", Code: "downloaded text (the output of curl)", How: effect.ScriptWord, From: effect.FromNetwork}, false},
		{effect.UnreadCode{By: "source", Code: "the output of a process substitution (<(x))", How: effect.ScriptWord, From: effect.FromProcess}, false},
		{effect.UnreadCode{By: "python", Code: "$X", How: effect.CodeWord}, true},
		{effect.UnreadCode{By: "sh", Code: "downloaded text", How: effect.ScriptInput}, false},
		{effect.Push{Dynamic: true}, true},
		{effect.Push{Force: true}, false},
		{effect.GuardChange{Change: effect.ConfigUnreadKey}, true},
		{effect.GuardChange{Change: effect.ConfigEdit}, false},
		{effect.ForgeAction{Op: effect.ForgeUnread, By: "gh", Does: effect.UnreadSubcommand}, true},
		{effect.ForgeAction{Op: effect.ForgeMerge, By: "gh", Args: "pr merge", Does: effect.MergesPullRequest}, false},
		{effect.Discard{Loss: effect.LostReset, Command: "git reset", Dynamic: true}, true},
		{effect.Discard{Loss: effect.LostReset, Command: "git reset"}, false},
	}
	for _, c := range cases {
		vs := JudgeEffect(c.e, f)
		if len(vs) == 0 {
			t.Errorf("%#v: no verdict", c.e)
			continue
		}
		for _, v := range vs {
			if v.RunTime != c.want {
				t.Errorf("%#v: %s says %q with RunTime %v, want %v", c.e, v.Rule, v.Reason, v.RunTime, c.want)
			}
		}
	}
}

// TestRunTimeWords: the sentences of the change and forge tables that say
// "only known at run time" are the entries marked RunTime, so the words
// and the fact do not drift apart.
func TestRunTimeWords(t *testing.T) {
	const words = "only known at run time"
	for k, w := range guardChanges {
		if strings.Contains(w.Says, words) != w.RunTime {
			t.Errorf("guard change %d says %q with RunTime %v", k, w.Says, w.RunTime)
		}
	}
	for k, w := range forgeDoes {
		if strings.Contains(w.Says, words) != w.RunTime {
			t.Errorf("forge call %d says %q with RunTime %v", k, w.Says, w.RunTime)
		}
	}
}
