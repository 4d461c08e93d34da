// Package ledger shares a task's token spend across every clone of a
// repository through its git remote, the only infrastructure a swarm
// shares: no server, no database.
//
// Layout: each agent records its spend for a task under a ref of its own,
//
//	refs/swarm-guard/usage/<task>/<agent-id>
//
// which only that agent ever updates, fast-forward only, so concurrent
// agents never contend for a ref and no push is ever forced. Every update
// is a new commit whose tree holds usage.json (the agent's cumulative
// tokens and turns for the task), with the previous record as parent: the
// history shows when the spend happened. Refs, not notes: notes attach to
// existing commits and share one notes ref, which concurrent writers would
// race on; one ref per agent and task keeps writes conflict-free and lets
// a reader fetch a single task (refs/swarm-guard/usage/<task>/*).
//
// Others' records are fetched to refs/swarm-guard/seen/<task>/<agent-id>.
// A task's total is what this clone's own ledger counts (every agent that
// ran here) plus the latest record of every agent that did not run here.
package ledger
