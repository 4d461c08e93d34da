// Package approval lets a human lift one denial once, in a way a headless
// agent cannot forge.
//
// A denial a human may lift (an ask rule, checkpoint oversight, a rule
// the policy lists under [approvals] rules) becomes a pending request with
// a short code. A human runs `swarm-guard approve CODE`; the agent retries
// the same call and it runs, once. A request is bound to the exact tool
// input, the agent id, the worktree and the policy (hashes of each) and
// expires ([approvals] expiry, one hour by default): another command,
// another agent, another worktree, a changed policy or a second use finds
// no approval and is denied again.
//
// The store is a directory of one JSON file per request under the
// repository's swarm-guard state directory (<git common dir>/swarm-guard/
// approvals, shared by every worktree of the clone). It sits outside the
// agent's reach for the same reason the audit log does: the engine treats
// every write under the state directory as guard-tamper, by any tool
// (redirections, cp, rm, Write/Edit, MCP arguments). The git common dir
// rather than the user's state dir: approvals belong to one repository,
// and a human approving from any worktree of the clone finds them.
// `swarm-guard approve` refuses to run inside an agent session by every
// sign the hooks know (CLAUDECODE, SWARM_GUARD_RUN, an agent id variable,
// an agent among the parent processes), and the Bash and MCP guards deny
// the agent's own `swarm-guard approve` (guard-tamper).
package approval
