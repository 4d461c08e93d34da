package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"time"

	"github.com/spf13/pflag"
)

// cli is everything a command may touch in its process: streams,
// environment, clock and the path of this executable.
type cli struct {
	stdin      io.Reader
	stdout     io.Writer
	stderr     io.Writer
	getenv     func(string) string
	now        func() time.Time
	executable func() (string, error)
	// self is this executable as the system names it, links not
	// resolved: the hook hands it to hookenv, which resolves it with the
	// other paths of the call. Nil means executable.
	self    func() (string, error)
	workdir func() (string, error)
}

func defaultCLI() *cli {
	return &cli{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, now: time.Now,
		executable: func() (string, error) {
			p, err := os.Executable()
			if err != nil {
				return "", err
			}
			return filepath.EvalSymlinks(p)
		},
		self:    os.Executable,
		workdir: os.Getwd,
	}
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	usage   string
	run     func(c *cli, args []string) error
	hidden  bool
}

// commands is the command table; each entry's code lives in cmd_<name>.go.
var commands []*command

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run executes one command line and returns the exit code. A panic never
// escapes: it becomes exit 2 with a one-line message, because Go's own
// panic output (also exit 2) is a stack trace nobody should have to read.
func run(args []string, c *cli) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(c.stderr, "swarm-guard: internal error: %v; nothing was allowed. Please report this with the command you ran.\n", r)
			if c.getenv("SWARM_GUARD_DEBUG") != "" {
				c.stderr.Write(debug.Stack())
			}
			code = exitBlock
		}
	}()
	if len(args) == 0 {
		printHelp(c.stderr)
		return exitBlock
	}
	name := args[0]
	switch name {
	case "-h", "--help", "help":
		if len(args) > 1 {
			if cmd := findCommand(args[1]); cmd != nil {
				fmt.Fprintln(c.stdout, cmd.usage)
				return exitOK
			}
		}
		printHelp(c.stdout)
		return exitOK
	case "--version", "-v":
		name = "version"
	}
	cmd := findCommand(name)
	if cmd == nil {
		fmt.Fprintf(c.stderr, "swarm-guard: unknown command %q; run `swarm-guard help` for the list\n", name)
		return exitBlock
	}
	if wantsHelp(args[1:]) {
		fmt.Fprintln(c.stdout, cmd.usage)
		return exitOK
	}
	err := cmd.run(c, args[1:])
	if err != nil && err.Error() != "" {
		msg := err.Error()
		if isUsage(err) {
			// One line, then where the whole usage is: a usage dump
			// buries the one thing that was wrong.
			msg += "\nhint: swarm-guard " + cmd.name + " --help shows the usage"
		}
		fmt.Fprintf(c.stderr, "swarm-guard %s: %s\n", cmd.name, msg)
	}
	return exitCode(err)
}

// wantsHelp reports whether a command line asks for help: -h or --help
// anywhere before "--" (after it, the words belong to another program,
// as in swarm-guard run -- claude -h). Every verb, the same way.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "swarm-guard keeps autonomous coding agents safe in a shared git repository.")
	fmt.Fprintln(w, "\nUsage: swarm-guard <command> [flags]\n\nCommands:")
	list := make([]*command, 0, len(commands))
	for _, cmd := range commands {
		if !cmd.hidden {
			list = append(list, cmd)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].name < list[j].name })
	for _, cmd := range list {
		fmt.Fprintf(w, "  %-12s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintln(w, "\nRun `swarm-guard help <command>` for a command's flags.")
}

// newFlags returns a flag set that reports errors instead of exiting: Go's
// flag errors exit 2, which a hook would turn into an accidental block, and
// their output is not ours to format.
func newFlags(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return fs
}

// parseFlags parses args and turns a flag error into a usage error.
//
// Machine output has one spelling on every verb, --format json, and --json
// is its alias (and the other way round for verbs that only define
// --json): parseFlags adds whichever of the two a verb lacks, so verbs
// added later follow the convention by defining either.
func parseFlags(fs *pflag.FlagSet, args []string) error {
	addFormatAliases(fs)
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return usageErrorf("usage:")
		}
		return usageErrorf("usage: %v", err)
	}
	return nil
}

// buildVersion and buildCommit are stamped by make dist / make build
// (-ldflags -X main.buildVersion=v0.x.y -X main.buildCommit=<sha>).
var buildVersion, buildCommit string

// commit returns the stamped commit, else the one the Go toolchain
// recorded, else "unknown".
func commit() string {
	if buildCommit != "" {
		return buildCommit
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				return s.Value
			}
		}
	}
	return "unknown"
}

// version returns the stamped release version, else the module version
// embedded by the Go toolchain.
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		v := info.Main.Version
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 && (v == "" || v == "(devel)") {
				v = "devel-" + s.Value[:12]
			}
		}
		if v != "" {
			return v
		}
	}
	return "devel"
}

// formatAlias is --json for a verb with --format, or --format for a verb
// with --json.
type formatAlias struct {
	fs     *pflag.FlagSet
	toJSON bool // this is --json, setting --format json
}

func (a *formatAlias) String() string { return "" }
func (a *formatAlias) Type() string {
	if a.toJSON {
		return "bool"
	}
	return "string"
}
func (a *formatAlias) Set(v string) error {
	if a.toJSON {
		if v == "true" {
			return a.fs.Set("format", "json")
		}
		return nil
	}
	switch v {
	case "json":
		return a.fs.Set("json", "true")
	case "text":
		return a.fs.Set("json", "false")
	}
	return fmt.Errorf("--format must be text or json, not %q", v)
}

func addFormatAliases(fs *pflag.FlagSet) {
	hasFormat, hasJSON := fs.Lookup("format") != nil, fs.Lookup("json") != nil
	switch {
	case hasFormat && !hasJSON:
		f := fs.VarPF(&formatAlias{fs: fs, toJSON: true}, "json", "", "same as --format json")
		f.NoOptDefVal = "true"
	case hasJSON && !hasFormat:
		fs.Var(&formatAlias{fs: fs}, "format", "text or json (json: same as --json)")
	}
}
