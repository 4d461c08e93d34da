// Package report is `swarm-guard report`: it summarises what the hook
// decided (decisions.go) and the attempts of swarm-guard run (runs,
// outcomes, turns, tokens, cost, and the lines each attempt changed, asked
// of git), both from the repository's audit log, and reads the shared
// ledger of a task or swarm session from the git remote (shared.go), also
// for a pull request's commits (Range, the CI step). cmd/swarm-guard
// checks the flags.
package report
