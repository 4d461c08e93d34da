package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

func TestJudgeRemoteCode(t *testing.T) {
	rc := []string{policy.RuleRemoteCode}
	checkVerdicts(t, &Facts{Policy: policy.Default()}, []verdictCase{
		{effect.UnreadCode{By: "sh", Code: "downloaded text (the output of curl)", How: effect.ScriptInput}, rc,
			"sh runs downloaded text (the output of curl) as a script, which the guard cannot check"},
		{effect.UnreadCode{By: "python", Code: "downloaded code (the output of curl)", How: effect.ProgramInput}, rc,
			"python runs downloaded code (the output of curl) as a program, which the guard cannot check"},
		{effect.UnreadCode{By: "eval", Code: "downloaded text ($(wget -qO- https://example.com/x))", How: effect.ScriptWord}, rc,
			"eval runs downloaded text ($(wget -qO- https://example.com/x)), which the guard cannot check"},
		{effect.UnreadCode{By: "sh", Code: "i.sh", How: effect.DownloadedFile}, rc,
			"sh runs i.sh, which this command downloaded, so the guard cannot check what it does"},
		{effect.UnreadCode{By: "deno run", Code: "https://x.example/m.ts", How: effect.URL}, rc,
			"deno run https://x.example/m.ts runs code downloaded from the network"},
		{effect.UnreadCode{By: "python", Code: "$X", How: effect.CodeWord}, rc, "python runs code that is only known at run time ($X)"},
		{effect.UnreadCode{By: "python", How: effect.EvalDownload}, rc, "python code downloads code and evaluates it, which the guard cannot check"},
		{effect.UnreadCode{By: "sed's e", Code: "the output of curl", How: effect.CommandLines}, rc,
			"sed's e runs its input, the output of curl, as shell commands"},
		{effect.Send{By: "curl", Hosts: []string{"example.com"}}, nil, ""},
	})
	// A script read from standard input gets the rule's own advice.
	vs := JudgeEffect(effect.UnreadCode{By: "sh", Code: "x", How: effect.ScriptInput}, &Facts{Policy: policy.Default()})
	if len(vs) != 1 || vs[0].Instead != RemoteCode.Instead {
		t.Errorf("verdicts %+v, want the rule's Instead", vs)
	}
}
