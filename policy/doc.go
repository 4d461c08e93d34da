// Package policy defines what swarm-guard enforces: the rules, their
// actions, protected branches, writable places, secret files, package
// allowlists, and the settings of the git hooks, CI check and budgets.
//
// A policy is the repository's .swarm-guard.toml decoded strictly over the
// embedded default (default.toml): unknown keys, bad globs and bad values
// are errors that name the file, the line and the key. The package only
// describes and validates; it decides nothing.
package policy
