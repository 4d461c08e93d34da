// Package rules is the catalog of the guard's core rules (the tool packs
// in guard/packs carry their own): one file per rule id, each holding the
// id, the reason the rule exists, the safe alternative ("Instead"), and the
// tool calls it must deny and must allow. A newcomer who asks "why is git
// push --force denied?" opens force_push.go.
//
// The engine's decisions name a rule and explain the case at hand; their
// shared alternatives come from here, and so do the texts of the git hooks
// that re-check the same rules (the pre-push hook's force and
// protected-branch checks), so a decision reads the same everywhere.
//
// The examples run in the corpus world (worktree /work/repo on branch
// agent-1, home /home/agent, another agent's worktree at
// /work/repo/.worktrees/agent-2; see guard/corpus_test.go) through the
// whole engine in guard's TestRuleCatalog, and the rule tables of
// docs/rules.md and README.md are generated from them (go test ./guard
// -run TestRuleTables -update-rules).
//
// A rule that has moved to the effects model (guard/effect) also holds its
// judge: the function that decides it from an effect alone. The engine and
// the git hooks call JudgeEffect with the same effect types, so they cannot
// disagree. The package is pure: no I/O, no clock, no environment.
package rules
