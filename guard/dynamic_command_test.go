package guard

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// TestDynamicCommandReasons pins the reason and alternative of each place
// that builds an effect.HiddenCode, as they read before the move onto
// effects (issue 11 §1): guard/rules/dynamic_command.go words them now.
func TestDynamicCommandReasons(t *testing.T) {
	env := testEnv()
	env.ReadFile = fakeFiles{
		"/work/repo/package.json": `{"scripts": {"build": "x"`,
		"/work/repo/justfile":     "build:\n\techo hi\n",
	}.read
	eng := New(corpusPolicy())
	for _, c := range []struct{ cmd, reason, alt string }{
		{`"$CMD" --force`,
			"the command name `\"$CMD\"` is only known at run time, so the guard cannot check what runs",
			`write the command name literally`},
		{`hash -p "$P" ls`,
			`hash -p binds ls to a program only known at run time`,
			`run the program by its own name`},
		{`env -S "$X"`,
			`env -S splits text only known at run time into a command`,
			`write the command literally`},
		{`GIT_SSH="$X" git fetch`,
			`GIT_SSH is a command other programs run, and its value is only known at run time`,
			`set GIT_SSH to a literal command`},
		{`git -c core.pager="$X" log`,
			`git runs the value of core.pager as a command, and that value is only known at run time`,
			`set core.pager to a literal command`},
		{`PS4="$(cat f)" bash -x s.sh`,
			`a prompt string only known at run time can run commands`,
			`set prompts to literal text`},
		{`PS4='$(' bash -x s.sh`,
			`a prompt string that does not parse can run commands`,
			`set prompts to literal text`},
		{`echo "$X" > s.sh && bash s.sh`,
			`bash runs /work/repo/s.sh, which this command filled with text only known at run time`,
			`write the script with literal text, or run its commands directly`},
		{`python -c 'exec(x)'`,
			`python code evaluates code only known at run time`,
			`write the code literally`},
		{`python -c 'import os; os.system(x)'`,
			`python code runs a command built at run time`,
			`run the command directly in the shell`},
		{`ruby -e 'system("rm #{x}")'`,
			`ruby code runs a command built at run time`,
			`run the command directly in the shell`},
		{`python -c 'import subprocess; f = subprocess.run; f(x)'`,
			`python code uses subprocess in a way the guard cannot follow, so it may run any command`,
			`run the command directly in the shell instead of through subprocess`},
		{`make "$T"`,
			`make gets an argument only known at run time ("$T"), so the guard cannot tell which recipes run`,
			`name the make targets literally`},
		{`task "$T"`,
			`task gets an argument only known at run time ("$T"), so the guard cannot tell which tasks run`,
			`name the tasks literally`},
		{`make -C "$D"`,
			`make runs in a directory only known at run time, so the guard cannot read its makefile`,
			`run make from the project directory, or name it with -C and a literal path`},
		{`cat "$F" | make -f -`,
			`make -f - reads its makefile from input only known at run time`,
			`write the makefile to a file first`},
		{`just --justfile "$F"`,
			`just reads a justfile named only at run time`,
			`name the justfile literally`},
		{`just "$R"`,
			`just runs a recipe named only at run time`,
			`name the recipe literally`},
		{`npm run "$S"`,
			`npm runs scripts from package.json, which is not valid JSON, so the guard cannot check them`,
			`fix package.json, then run the script again`},
		{`osascript -e "$S"`,
			`osascript runs a script only known at run time, which may run shell commands`,
			`write the script literally`},
		{`osascript -e 'do shell script "rm " & x'`,
			`osascript's do shell script runs shell text built at run time`,
			`run the shell command directly`},
		{`git "$SUB"`,
			"the git subcommand or option `\"$SUB\"` is only known at run time",
			`write the git command literally`},
		{`git -c alias.x="$V" x`,
			`the git alias x is only known at run time`,
			`define aliases with literal values`},
		{`git --exec-path=/tmp/x status`,
			`git --exec-path runs git subcommands from /tmp/x`,
			`run git without --exec-path`},
		{`echo "$X" | sed e`,
			`sed's e runs text that is only known at run time as shell commands`,
			`run the commands directly`},
		{`sed 'e' x.txt`,
			`sed's e runs text that is only known at run time as shell commands`,
			`run the commands directly`},
		{`vim -c 'call system("ls")' x`,
			`vim runs system() from the command line`,
			`run the command directly in the shell`},
		{`ex -c 'call system("ls")' x`,
			`ex runs system() from the command line`,
			`run the command directly in the shell`},
		{`ls | xargs -I{} sh -c 'echo {}'`,
			`xargs puts its input into the text of a shell script, where a line of it runs as code`,
			`pass the input as an argument instead: xargs -I{} sh -c 'cmd "$1"' _ {}`},
		{`find . -exec sh -c 'echo {}' \;`,
			`find puts each path it finds into the text of a shell script, where a file name runs as code`,
			`pass the path as an argument instead: find ... -exec sh -c 'cmd "$1"' _ {} \;`},
		{`pwsh -c ls`,
			`swarm-guard cannot analyse PowerShell commands`,
			`use bash syntax`},
	} {
		d := eng.CheckCommand(c.cmd, env)
		var got []Finding
		for _, f := range d.Findings {
			if f.Rule == policy.RuleDynamicCommand {
				got = append(got, f)
			}
		}
		if len(got) != 1 || got[0].Reason != c.reason || got[0].Alternative != c.alt || got[0].Action != policy.Deny {
			t.Errorf("%s: dynamic-command findings %+v, want one denial %q (instead %q)", c.cmd, got, c.reason, c.alt)
		}
	}
}

// TestDynamicCommandsKey: the top-level dynamic_commands key decides what
// the judged effects do: "ask" asks, "allow" lets them through.
func TestDynamicCommandsKey(t *testing.T) {
	for _, c := range []struct {
		key  policy.Action
		want policy.Action
	}{{policy.Deny, policy.Deny}, {policy.Ask, policy.Ask}, {policy.Allow, ""}} {
		p := corpusPolicy()
		p.DynamicCommands = c.key
		for _, cmd := range []string{`"$CMD" --force`, `make "$T"`, `git "$SUB"`, `ls | xargs -I{} sh -c 'echo {}'`} {
			if d := New(p).CheckCommand(cmd, testEnv()); d.Action != c.want {
				t.Errorf("dynamic_commands = %q: %s is %q, want %q", c.key, cmd, d.Action, c.want)
			}
		}
	}
}
