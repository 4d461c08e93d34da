// Package audit appends decision records to the swarm-guard audit log, a
// JSON-lines file under the repository's git common dir shared by every
// worktree. Appends are serialised with an advisory file lock so concurrent
// hooks never interleave lines.
package audit
