package rules

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// DynamicCommand: a command whose name is only known at run time cannot
// be checked. The top-level dynamic_commands key sets it (it also accepts
// "allow"), not [rules].
var DynamicCommand = Rule{
	ID:      policy.RuleDynamicCommand,
	Reason:  "a command only known at run time cannot be checked before it runs",
	Instead: "write the command name literally",
	Deny: []string{
		`"$CMD" --force`,
		`$(cat cmd.txt) -rf build`,
		`find . -name '*.sh' -exec sh {} \;`,
		`bash "$(ls scripts/*.sh | head -1)"`,
	},
	Allow: []string{
		`echo "$CMD"`,
		"git status",
		`find . -name '*.sh' -exec shellcheck {} +`,
		// A script path in a variable of the environment the shell starts
		// with is the human's: the agent cannot set it between calls, and
		// . "$NVM_DIR/nvm.sh" is how node is set up. Only a path this
		// command works out itself is denied (ChosenScript).
		`bash "$SETUP_SCRIPT"`,
		// A file named literally, in a directory only known at run time,
		// is that file: how nvm from Homebrew is set up.
		`. "$(brew --prefix nvm)/nvm.sh"`,
	},
	Judge: judgeDynamicCommand,
}

// judgeDynamicCommand denies code the guard cannot read, saying why it
// cannot and how to write it so it can.
func judgeDynamicCommand(e effect.Effect, _ *Facts) []Verdict {
	x, ok := e.(effect.HiddenCode)
	if !ok {
		return nil
	}
	reason, instead := hiddenReason(x)
	if reason == "" {
		return nil
	}
	return []Verdict{{Reason: reason, Instead: instead, RunTime: x.Why.RunTime()}}
}

// hiddenReason is the reason and the alternative for one kind of code the
// guard cannot read ("" for a kind it does not know).
func hiddenReason(x effect.HiddenCode) (reason, instead string) {
	by, what := x.By, x.What
	switch x.Why {
	case effect.CommandName:
		return "the command name " + what + " is only known at run time, so the guard cannot check what runs", "" // the rule's own
	case effect.BoundProgram:
		return "hash -p binds " + what + " to a program only known at run time", "run the program by its own name"
	case effect.SplitText:
		return "env -S splits text only known at run time into a command", "write the command literally"
	case effect.CommandVariable:
		return what + " is a command other programs run, and its value is only known at run time", "set " + what + " to a literal command"
	case effect.ConfigCommand:
		return "git runs the value of " + what + " as a command, and that value is only known at run time", "set " + what + " to a literal command"
	case effect.PromptText:
		return "a prompt string only known at run time can run commands", "set prompts to literal text"
	case effect.PromptUnparsed:
		return "a prompt string that does not parse can run commands", "set prompts to literal text"
	case effect.FilledScript:
		return by + " runs " + what + ", which this command filled with text only known at run time",
			"write the script with literal text, or run its commands directly"
	case effect.EvalCode:
		return by + " code evaluates code only known at run time", "write the code literally"
	case effect.UnreadCommand:
		return by + " code runs a command the guard cannot read", "run the command directly in the shell"
	case effect.BuiltCommand:
		return by + " code runs a command built at run time", "run the command directly in the shell"
	case effect.ShellModule:
		return by + " code uses " + what + " in a way the guard cannot follow, so it may run any command",
			"run the command directly in the shell instead of through " + what
	case effect.RunnerArgument:
		if by == "task" {
			return "task gets an argument only known at run time (" + what + "), so the guard cannot tell which tasks run", "name the tasks literally"
		}
		return by + " gets an argument only known at run time (" + what + "), so the guard cannot tell which recipes run", "name the make targets literally"
	case effect.RunnerDir:
		return by + " runs in a directory only known at run time, so the guard cannot read its makefile",
			"run make from the project directory, or name it with -C and a literal path"
	case effect.RunnerInput:
		return by + " -f - reads its makefile from input only known at run time", "write the makefile to a file first"
	case effect.JustfileName:
		return by + " reads a justfile named only at run time", "name the justfile literally"
	case effect.RecipeName:
		return by + " runs a recipe named only at run time", "name the recipe literally"
	case effect.ScriptName:
		return by + " run gets a script name only known at run time", "name the script literally"
	case effect.AppleScript:
		return by + " runs a script only known at run time, which may run shell commands", "write the script literally"
	case effect.AppleShell:
		return by + "'s do shell script runs shell text built at run time", "run the shell command directly"
	case effect.GitWord:
		return "the git subcommand or option " + what + " is only known at run time", "write the git command literally"
	case effect.GitAlias:
		return "the git alias " + what + " is only known at run time", "define aliases with literal values"
	case effect.FindExpression:
		return "find's expression holds " + what + ", only known at run time; it may be -delete or -exec", "write find's expression literally"
	case effect.MatchedScripts:
		return by + " runs each file " + what + " matches as a script: files chosen at run time, which the guard cannot read before they run",
			"run the script you mean by its path (bash scripts/build.sh), which the guard reads first; list the matches with find ... -print"
	case effect.ChosenScript:
		return by + " runs the script " + what + ", a path this command works out at run time, so the guard cannot read it before it runs",
			"run the script you mean by its path (bash scripts/build.sh), which the guard reads first"
	case effect.ExecPath:
		return "git --exec-path runs git subcommands from " + what, "run git without --exec-path"
	case effect.UnreadableFile:
		return by + " runs commands from " + what + ", which the guard cannot read, so it cannot check what runs",
			"run the commands of the recipe or script directly"
	case effect.UnparsableFile:
		return by + " runs tasks from " + what + ", which the guard cannot parse, so it cannot check what runs",
			"run the task's commands directly"
	case effect.InvalidJSON:
		return by + " runs scripts from " + what + ", which is not valid JSON, so the guard cannot check them",
			"fix package.json, then run the script again"
	case effect.SedExecute:
		return "sed's e runs text that is only known at run time as shell commands", "run the commands directly"
	case effect.EditorSystem:
		return by + " runs system() from the command line", "run the command directly in the shell"
	case effect.SplicedInput:
		return "xargs puts its input into the text of a shell script, where a line of it runs as code",
			"pass the input as an argument instead: xargs -I{} sh -c 'cmd \"$1\"' _ {}"
	case effect.SplicedPaths:
		return "find puts each path it finds into the text of a shell script, where a file name runs as code",
			"pass the path as an argument instead: find ... -exec sh -c 'cmd \"$1\"' _ {} \\;"
	case effect.TooDeep:
		return by + " runs other task runners more than " + what + " levels deep", "run the inner target or script directly"
	case effect.PowerShell:
		return "swarm-guard cannot analyse PowerShell commands", "use bash syntax"
	case effect.PowerShellTool:
		return "swarm-guard cannot analyse PowerShell commands", "use the Bash tool instead"
	}
	return "", ""
}
