// Package replay judges a team's recorded tool calls (package history)
// under a policy, as the hook would have judged them, and sums the
// decisions per rule: how often, first where, by which agents. Against a
// second policy it keeps only the calls whose decision changes. It is
// what `swarm-guard replay` prints, and the step between a week in log
// mode and enforcing (docs/rollout.md).
//
// Each call is judged in the directory it ran in, with its session's
// launch directory as the agent's home worktree, as recorded: a transcript
// from another machine keeps its own paths.
package replay
