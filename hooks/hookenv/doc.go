// Package hookenv gathers the facts the engine needs about the world
// around a tool call (worktree root, git dirs, branch, home, temp dir,
// symlinks) into a guard.Env, reading files only and never running git.
package hookenv
