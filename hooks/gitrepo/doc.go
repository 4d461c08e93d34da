// Package gitrepo finds a git worktree and reads what the guard needs from
// it (root, git dirs, current branch, hooks directory, sibling worktrees)
// straight from the .git files, without running git: it is on the path of
// every hook call.
package gitrepo
