// Package ledger shares a swarm's token spend across every clone of a
// repository through its git remote, the only infrastructure a swarm
// shares: no server, no database.
//
// Layout: each agent records its spend for a task under a ref of its own,
//
//	refs/swarm-guard/usage/<task>/<agent-id>
//
// and, when its run names a swarm session (run --session, [budget]
// session), its spend in that session under
//
//	refs/swarm-guard/sessions/<session>/<agent-id>
//
// Only that agent ever updates its refs, fast-forward only, so concurrent
// agents never contend for a ref and no push is ever forced. Every update
// is a new commit whose tree holds usage.json (the agent's cumulative
// tokens and turns; a task record also lists the budget sessions it was
// spent in, a session record splits the spend by task), with the previous
// record as parent: the history shows when the spend happened.
//
// Refs, not notes: notes attach to existing commits and share one notes
// ref, which concurrent writers would race on. One ref per agent and task
// (not one per task) keeps writes conflict-free, and per task rather than
// one per agent lets a reader fetch a single task
// (refs/swarm-guard/usage/<task>/*) instead of the whole swarm's history.
// A session is a second, separate ref rather than a sum over task refs
// for the same reason: enforcing a session budget fetches one prefix,
// whatever number of tasks the session spans.
//
// Others' records are fetched to refs/swarm-guard/seen/<task>/<agent-id>
// (and seen-sessions/<session>/<agent-id>). A total is what this clone's
// own ledger counts (every agent that ran here) plus the latest record of
// every agent that did not run here.
package ledger
