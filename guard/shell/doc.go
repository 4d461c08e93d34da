// Package shell is the shell layer of swarm-guard's engine: the types a
// command becomes once its shell syntax has been seen through, before any
// tool family says what it does.
//
// Its one job is to describe invocations: a [Word] is one argument after
// the expansion that can be done statically (its text, or that it is only
// known at run time, a pattern, fed by a secret); an [Invocation] is one
// simple command as it will run (name, argv, environment assignments, the
// wrappers seen through, the [State] of the shell it runs in: possible
// working directories, variables, functions, aliases; and its standard
// [Input]); [ParseOpts] splits an argv into options and operands by a
// command's [Spec], the normalized view tool families read (flags,
// operands, the subcommand path).
//
// An [Expander] expands a parsed word into its possible values as far as
// they can be known before the command runs (quoting, known variables,
// ~, braces, ${x#pattern}, $IFS splitting, $(pwd) and the like); what
// only the tool families know (secrets, the output of some commands) it
// asks through [Tools].
//
// A [Walker] holds the Expander and applies the builtins that only change
// the shell's state ([Walker.Cd] for cd, chdir, pushd and popd; [Set];
// [Shift]; [Walker.WithCwd] for -C and --chdir options). [Wrapped] knows
// the plain wrappers (nohup, timeout, nice, exec, command, chroot,
// busybox ...): the command each runs. The walk over statements,
// pipelines, redirections and the other wrappers that builds invocations
// is still in package guard (analyzer.go, stdin.go, commands.go). Like
// the rest of the engine, this package is pure: no process execution,
// environment, clock or file system.
package shell
