package effect

// HiddenCode is an invocation that runs code the guard cannot read, so no
// rule can check what it does: a name or text only known at run time, a
// file that cannot be read or parsed, input spliced into the text of a
// script, task runners nested too deep, a shell the guard does not
// analyse. guard/rules/dynamic_command.go judges it; the top-level
// dynamic_commands policy key decides what happens.
type HiddenCode struct {
	// By is what runs the code, as a reason names it: "make", "python",
	// "xargs", "sed's e", a runner's target ("make build").
	By string
	// What is what the guard cannot read, as a reason names it: the word
	// as written ("$T"), a file ("Taskfile.yml"), a variable or config
	// key ("GIT_SSH", "core.pager"), a module ("subprocess"); "" when the
	// kind says it all.
	What string
	Why  Hidden
}

// Hidden is why the guard cannot read the code an invocation runs.
type Hidden int

const (
	// Words only known at run time.

	// CommandName: the command's own name ("$CMD" --force); What is the
	// name as written.
	CommandName Hidden = iota
	// BoundProgram: hash -p "$P" NAME binds What to an unknown program.
	BoundProgram
	// SplitText: env -S "$X" splits unknown text into a command.
	SplitText
	// CommandVariable: a variable other programs run as a command
	// (What: GIT_SSH, EDITOR …) gets an unknown value.
	CommandVariable
	// ConfigCommand: git runs the value of the config key What as a
	// command, and the value is unknown.
	ConfigCommand
	// PromptText: a prompt string (PS4, ${x@P}) only known at run time.
	PromptText
	// PromptUnparsed: a prompt string that does not parse.
	PromptUnparsed
	// FilledScript: By runs the file What, which the same command filled
	// with text only known at run time.
	FilledScript
	// EvalCode: By's code evaluates code only known at run time.
	EvalCode
	// UnreadCommand: By's code runs a command the guard cannot read.
	UnreadCommand
	// BuiltCommand: By's code runs a command built at run time.
	BuiltCommand
	// ShellModule: By's code uses the module What in a way the guard
	// cannot follow.
	ShellModule
	// RunnerArgument: make or task (By) gets the word What, only known
	// at run time, so which recipes or tasks run is unknown.
	RunnerArgument
	// RunnerDir: make runs in a directory only known at run time.
	RunnerDir
	// RunnerInput: make -f - reads its makefile from unknown input.
	RunnerInput
	// JustfileName: just --justfile names its file only at run time.
	JustfileName
	// RecipeName: just runs a recipe named only at run time.
	RecipeName
	// ScriptName: npm run (By) gets a script name only known at run time.
	ScriptName
	// AppleScript: osascript runs a script only known at run time.
	AppleScript
	// AppleShell: osascript's do shell script runs shell text built at
	// run time.
	AppleShell
	// GitWord: the git subcommand or option What is only known at run time.
	GitWord
	// GitAlias: the git alias What is only known at run time.
	GitAlias
	// FindExpression: find's expression holds What, only known at run
	// time.
	FindExpression
	// MatchedScripts: By runs each file a pattern or find matches (What)
	// as a script or program: files chosen at run time, which the guard
	// has not read (find . -name '*.sh' -exec sh {} \;).
	MatchedScripts
	// ChosenScript: By runs the file What as a script or program, a path
	// this command works out at run time (from a command's output, a
	// read, a variable it set so), which the guard has not read
	// (bash "$(ls scripts/*.sh | head -1)").
	ChosenScript

	// Code the guard cannot read or run itself.

	// ExecPath: git --exec-path=What runs git subcommands from What.
	ExecPath
	// UnreadableFile: By runs commands from the file What, which exists
	// but cannot be read.
	UnreadableFile
	// UnparsableFile: task (By) runs tasks from What, which does not parse.
	UnparsableFile
	// InvalidJSON: By runs scripts from the package.json What, which is
	// not valid JSON.
	InvalidJSON
	// SedExecute: sed's e runs text only known at run time as commands.
	SedExecute
	// EditorSystem: vim or ex (By) runs system() from the command line
	// (-c 'call system(…)', +cmd).
	EditorSystem

	// Input spliced into the text of a shell script.

	// SplicedInput: xargs puts its input into sh -c's script text.
	SplicedInput
	// SplicedPaths: find -exec sh -c puts each path into the script text.
	SplicedPaths

	// Nesting and shells the guard does not follow.

	// TooDeep: By runs other task runners more than What levels deep.
	TooDeep
	// PowerShell: pwsh -Command; the guard cannot analyse PowerShell.
	PowerShell
	// PowerShellTool: a call of Claude Code's PowerShell tool.
	PowerShellTool
)

// RunTime reports whether code hidden this way is hidden by a word only
// known at run time (a name, text, a directory or the files a pattern
// matches), rather than by a file the guard cannot read or a shell it
// does not analyse.
func (h Hidden) RunTime() bool {
	switch h {
	case CommandName, BoundProgram, SplitText, CommandVariable, ConfigCommand, PromptText, FilledScript, EvalCode, BuiltCommand,
		RunnerArgument, RunnerDir, RunnerInput, JustfileName, RecipeName, ScriptName, AppleScript, AppleShell, GitWord, GitAlias,
		FindExpression, MatchedScripts, ChosenScript, SedExecute:
		return true
	}
	return false
}

func (HiddenCode) isEffect() {}
