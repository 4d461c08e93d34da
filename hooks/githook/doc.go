// Package githook is swarm-guard's git hooks: pre-commit (branch check,
// then the secret and conflict-marker scan of the staged changes),
// prepare-commit-msg and commit-msg (the agent or human trailer, and the
// local record of who committed), and pre-push (fast-forwards, protected
// branches, branch ownership and trailers of the commits being pushed).
//
// Each hook reads the worktree git runs it in and that worktree's policy,
// prints one line per problem on its Env's Stderr and returns Pass or
// Blocked, the exit code git acts on. cmd/swarm-guard only checks git's
// arguments and calls the hook.
package githook
