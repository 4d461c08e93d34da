package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

func TestJudgeDynamicCommand(t *testing.T) {
	dc := []string{policy.RuleDynamicCommand}
	h := func(by, what string, why effect.Hidden) effect.HiddenCode {
		return effect.HiddenCode{By: by, What: what, Why: why}
	}
	cases := []verdictCase{
		{h("", `"$CMD"`, effect.CommandName), dc, `the command name "$CMD" is only known at run time, so the guard cannot check what runs`},
		{h("hash -p", "ls", effect.BoundProgram), dc, "hash -p binds ls to a program only known at run time"},
		{h("env -S", "", effect.SplitText), dc, "env -S splits text only known at run time into a command"},
		{h("", "GIT_SSH", effect.CommandVariable), dc, "GIT_SSH is a command other programs run, and its value is only known at run time"},
		{h("git", "core.pager", effect.ConfigCommand), dc, "git runs the value of core.pager as a command, and that value is only known at run time"},
		{h("", "", effect.PromptText), dc, "a prompt string only known at run time can run commands"},
		{h("", "$(", effect.PromptUnparsed), dc, "a prompt string that does not parse can run commands"},
		{h("bash", "x.sh", effect.FilledScript), dc, "bash runs x.sh, which this command filled with text only known at run time"},
		{h("python", "", effect.EvalCode), dc, "python code evaluates code only known at run time"},
		{h("python", "", effect.UnreadCommand), dc, "python code runs a command the guard cannot read"},
		{h("ruby", "", effect.BuiltCommand), dc, "ruby code runs a command built at run time"},
		{h("python", "subprocess", effect.ShellModule), dc, "python code uses subprocess in a way the guard cannot follow, so it may run any command"},
		{h("make", "$T", effect.RunnerArgument), dc, "make gets an argument only known at run time ($T), so the guard cannot tell which recipes run"},
		{h("task", "$T", effect.RunnerArgument), dc, "task gets an argument only known at run time ($T), so the guard cannot tell which tasks run"},
		{h("make", "", effect.RunnerDir), dc, "make runs in a directory only known at run time, so the guard cannot read its makefile"},
		{h("make", "standard input", effect.RunnerInput), dc, "make -f - reads its makefile from input only known at run time"},
		{h("just", "$F", effect.JustfileName), dc, "just reads a justfile named only at run time"},
		{h("just", "", effect.RecipeName), dc, "just runs a recipe named only at run time"},
		{h("npm", "", effect.ScriptName), dc, "npm run gets a script name only known at run time"},
		{h("osascript", "$S", effect.AppleScript), dc, "osascript runs a script only known at run time, which may run shell commands"},
		{h("osascript", "", effect.AppleShell), dc, "osascript's do shell script runs shell text built at run time"},
		{h("git", "$SUB", effect.GitWord), dc, "the git subcommand or option $SUB is only known at run time"},
		{h("git", "$A", effect.GitAlias), dc, "the git alias $A is only known at run time"},
		{h("find", "$E", effect.FindExpression), dc, "find's expression holds $E, only known at run time; it may be -delete or -exec"},
		{h("sh", "`./**/*.sh`", effect.MatchedScripts), dc, "sh runs each file `./**/*.sh` matches as a script: files chosen at run time, which the guard cannot read before they run"},
		{h("bash", "`\"$(cat next.txt)\"`", effect.ChosenScript), dc, "bash runs the script `\"$(cat next.txt)\"`, a path this command works out at run time, so the guard cannot read it before it runs"},
		{h("git", "/tmp/x", effect.ExecPath), dc, "git --exec-path runs git subcommands from /tmp/x"},
		{h("make build", "Makefile", effect.UnreadableFile), dc, "make build runs commands from Makefile, which the guard cannot read, so it cannot check what runs"},
		{h("task", "Taskfile.yml", effect.UnparsableFile), dc, "task runs tasks from Taskfile.yml, which the guard cannot parse, so it cannot check what runs"},
		{h("npm", "package.json", effect.InvalidJSON), dc, "npm runs scripts from package.json, which is not valid JSON, so the guard cannot check them"},
		{h("sed's e", "", effect.SedExecute), dc, "sed's e runs text that is only known at run time as shell commands"},
		{h("vim", "", effect.EditorSystem), dc, "vim runs system() from the command line"},
		{h("xargs", "its input", effect.SplicedInput), dc, "xargs puts its input into the text of a shell script, where a line of it runs as code"},
		{h("find", "each path", effect.SplicedPaths), dc, "find puts each path it finds into the text of a shell script, where a file name runs as code"},
		{h("make build", "3", effect.TooDeep), dc, "make build runs other task runners more than 3 levels deep"},
		{h("pwsh", "", effect.PowerShell), dc, "swarm-guard cannot analyse PowerShell commands"},
		{h("PowerShell", "", effect.PowerShellTool), dc, "swarm-guard cannot analyse PowerShell commands"},
		{h("x", "", effect.Hidden(-1)), nil, ""},
		{effect.UnreadCode{By: "sh", Code: "x", How: effect.ScriptInput}, []string{policy.RuleRemoteCode}, ""},
	}
	checkVerdicts(t, &Facts{Policy: policy.Default()}, cases)
	// Every kind has its own words: none falls through to the unknown case.
	seen := map[effect.Hidden]bool{}
	for _, c := range cases {
		if x, ok := c.e.(effect.HiddenCode); ok {
			seen[x.Why] = true
		}
	}
	for k := effect.CommandName; k <= effect.PowerShellTool; k++ {
		if !seen[k] {
			t.Errorf("kind %d has no case in this table", k)
		}
	}
	// A dynamic command name gets the rule's own advice.
	vs := JudgeEffect(h("", "$X", effect.CommandName), &Facts{Policy: policy.Default()})
	if len(vs) != 1 || vs[0].Instead != DynamicCommand.Instead {
		t.Errorf("verdicts %+v, want the rule's Instead", vs)
	}
}
