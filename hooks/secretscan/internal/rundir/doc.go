// Package rundir finds a directory of this user's own for the sockets of
// swarm-guard's background helpers (the worktree file watcher and the scan
// server), short enough for a unix socket address, and checks that no one
// else can write there: where another user could put a socket, a fake
// helper could answer that nothing was written or nothing was found.
package rundir
