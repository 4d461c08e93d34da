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
// A [Walker] walks a script ([Walker.Script]): statements, && and || chains,
// pipelines, subshells and blocks, if/while/for/case, assignments and
// declarations, functions (walked where they are called, and once more in
// their declaring state when never called), aliases, command and process
// substitutions. Each simple command, its words expanded into the argument
// vectors it may run with, goes to the tool families as an [Invocation]
// through the [Families] interface. Redirections become data too: each
// [Redirect] (the files it writes or reads, whether the statement's output
// goes there) goes to the families, and the [Input] a statement reads (a
// here-document, a here-string, a file, <(cmd), the previous pipeline stage,
// whose output the families describe) comes with its invocation. The
// families recurse through Walker.Script for the scripts commands run (eval,
// bash -c, sourced files, task-runner recipes). The walk carries the limits
// of one decision ([MaxDepth], [MaxNodes]): what goes beyond them is refused
// through Families.BadInput, never walked partially.
//
// The Walker also applies the builtins that only change the shell's state
// ([Walker.Cd] for cd, chdir, pushd and popd; [Set]; [Shift];
// [Walker.WithCwd] for -C and --chdir options); [Wrapped] knows the plain
// wrappers (nohup, timeout, nice, exec, command, chroot, busybox ...): the
// command each runs.
//
// The acting wrappers (acting.go: sudo, doas, env, su, runuser, flock,
// watch, script, strace, time, xargs, parallel) run their command through
// [Walker.Reinvoke] or [Walker.RunScript] and hand what they do of their own
// to the families (a fresh environment, a file written or read, a variable
// unset, input spliced into a script). The builtins that change the state or
// run text (builtins.go: read, printf -v, export, unset, alias, trap, eval,
// the shells through [Walker.Shell]: sh -c, sh -s, sh FILE, sh reading its
// script on standard input; source) and what echo and printf print
// ([Printed]) are here too; what a script file holds the families know and
// walk (Families.RunFile). find -exec and the interpreters' options stay
// with the families in package guard, which also holds the table that
// dispatches a command name to them. Like the rest of the engine, this
// package is pure: no process execution, environment, clock or file system.
package shell
