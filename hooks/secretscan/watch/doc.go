// Package watch tells PostToolUse which files of a worktree changed during
// a Bash call that the shell analysis cannot see into (an opaque command:
// a script, a build), without a worktree-wide scan.
//
// A watcher process per worktree (Serve, Linux inotify) records every file
// written in the worktree; PostToolUse asks it (Changed) for the files
// written since the call began. Its answer costs one round trip on a unix
// socket, however many files the worktree tracks. The watcher is started
// in the background by the first PostToolUse that needs it (Start): that
// call, and any call the watcher cannot vouch for (it was not watching yet
// when the call began, the kernel dropped events, a directory moved), falls
// back to the worktree-wide git status. It exits after half an hour without a
// question, when the worktree disappears, or at the first change it cannot
// follow.
//
// Files live in the state directory, inside the git directory, which the
// guard keeps agents from writing (rule guard-tamper): watch-<id>.sock,
// watch-<id>.lock (held while a watcher runs), watch-<id>.failed (why the
// last watcher could not start; no new one is started for an hour) and
// watch-<id>.cookies/ (the round trip's sync point).
package watch
