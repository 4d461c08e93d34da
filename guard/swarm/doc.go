// Package swarm holds the boundaries between the agents of a swarm and
// between the agents and the humans who oversee them, as pure functions:
// which refs an agent may write (its home branch, branches matching
// [swarm] own_branches, new tags; never another agent's branch) and what
// a forge API call does: ForgeAPIAction classifies a REST or GraphQL call
// as the effect.ForgeAction the oversight rule judges, the same as the gh
// command that does the same. What each oversight mode does with a forge
// operation, and the words it says, are rule oversight's
// (guard/rules/oversight.go).
//
// The engine (package guard), the pre-push hook and the MCP judge all ask
// the same functions, so a push is judged alike however it is made. The
// package never touches the file system, the environment or the clock.
package swarm
