// Package effect describes, as data, what one tool invocation does to the
// world: the refs it pushes, the paths it deletes, writes or reads, the
// hosts it sends to and what it sends, the SQL it runs, the packages it
// installs.
//
// The engine is built in three layers. The shell core (guard's analyzer)
// turns a command into invocations: program, subcommand, flags, operands,
// cwd and data flows, following wrappers, shells, task runners and
// substitutions. Tool families (guard's git, file, network … code) turn an
// invocation into effects, with the facts only they know resolved (the
// branch HEAD names, the absolute path a relative operand means). Rules
// (guard/rules) judge effects and never see the command line, so the
// pre-push hook and verify, which learn what is pushed from git rather than
// from a command, build the same effects and get the same decisions in the
// same words.
//
// An effect is a plain value with no behaviour; each family keeps its
// types in its own file (push.go, paths.go, network.go …).
package effect
